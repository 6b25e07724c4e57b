import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import type { WorkDirs } from '../../application/ports/work-dirs.js';

export class TemporaryWorkDirs implements WorkDirs {
  constructor(private readonly root: string) {}

  async create(label: string): Promise<string> {
    await mkdir(this.root, { recursive: true });
    return mkdtemp(path.join(this.root, `${label.replace(/[^A-Za-z0-9_-]/g, '_')}-`));
  }

  async remove(dir: string): Promise<void> {
    await rm(dir, { recursive: true, force: true });
  }
}
