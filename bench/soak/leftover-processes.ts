import { readFile, readdir } from 'node:fs/promises';
import { commandLineOf } from './process-tree.js';

/**
 * The variable the soak gives every process of its fleet. Children inherit
 * the environment, so the fork servers, the downloads forked from them, their
 * ffmpeg and the warm helpers carry it too, even where their command line
 * names nothing of the run and after their parent died.
 */
export const SOAK_MARKER_VARIABLE = 'VDS_SOAK_RUN';

export interface MarkedProcess {
  pid: number;
  commandLine: string;
}

/** Every process (other than this one) whose environment carries `marker` as the soak's variable, from /proc/<pid>/environ. */
export async function processesMarked(marker: string): Promise<MarkedProcess[]> {
  const needle = `${SOAK_MARKER_VARIABLE}=${marker}`;
  const found: MarkedProcess[] = [];
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const environ = await readFile(`/proc/${entry}/environ`, 'latin1').catch(() => '');
    if (!environ.split('\0').includes(needle)) continue;
    found.push({ pid: Number(entry), commandLine: await commandLineOf(Number(entry)) });
  }
  return found;
}
