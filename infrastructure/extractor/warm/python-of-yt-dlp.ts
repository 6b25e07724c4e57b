import { open } from 'node:fs/promises';
import { locateCommand } from '../locate-command.js';

/**
 * The interpreter a yt-dlp launcher script runs with, from its `#!` line
 * (Debian's `/usr/bin/yt-dlp` is `#!/usr/bin/python3` over the module in
 * dist-packages; a zipapp release is `#!/usr/bin/env python3`). A bare
 * name (`yt-dlp`) is looked up on PATH, as running it would. Null for a
 * program that is not a Python script (a frozen binary) or is not found:
 * then only the command line can be used.
 */
export async function pythonOfYtDlp(ytDlpPath: string): Promise<string[] | null> {
  const located = await locateCommand(ytDlpPath);
  if (located === null) return null;
  let firstLine: string;
  try {
    const file = await open(located, 'r');
    try {
      const buffer = Buffer.alloc(256);
      const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
      firstLine = buffer.subarray(0, bytesRead).toString('latin1').split('\n')[0];
    } finally {
      await file.close();
    }
  } catch {
    return null;
  }
  if (!firstLine.startsWith('#!')) return null;
  const command = firstLine.slice(2).trim().split(/\s+/);
  const program = command.at(-1) ?? '';
  return /(^|\/)python[\d.]*$/.test(program) || (command[0].endsWith('/env') && /^python[\d.]*$/.test(program))
    ? command
    : null;
}
