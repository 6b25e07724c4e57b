import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface LoadedMasterKey {
  key: Buffer;
  /** True when a development key was generated because none was configured. */
  generated: boolean;
}

/**
 * The operator's 32-byte master key (MASTER_KEY, base64 or hex). Without one,
 * a development key is generated once into a git-ignored local file, so a
 * fresh checkout runs while production deployments set their own.
 */
export function loadMasterKey(configured: string | null, developmentKeyFile: string): LoadedMasterKey {
  if (configured !== null) return { key: decodeMasterKey(configured, 'MASTER_KEY'), generated: false };
  if (existsSync(developmentKeyFile)) {
    return {
      key: decodeMasterKey(readFileSync(developmentKeyFile, 'utf8').trim(), developmentKeyFile),
      generated: false,
    };
  }
  const key = randomBytes(32);
  mkdirSync(path.dirname(developmentKeyFile), { recursive: true });
  // 'wx' fails if another process created the file first; then use theirs.
  try {
    writeFileSync(developmentKeyFile, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch {
    return {
      key: decodeMasterKey(readFileSync(developmentKeyFile, 'utf8').trim(), developmentKeyFile),
      generated: false,
    };
  }
  return { key, generated: true };
}

export function decodeMasterKey(text: string, source: string): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex') : Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error(`Invalid configuration: ${source} must hold 32 bytes in base64 or hex`);
  return key;
}
