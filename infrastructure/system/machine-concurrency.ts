import { availableParallelism, totalmem } from 'node:os';

const MEMORY_PER_JOB_BYTES = 512 * 1024 * 1024;
const JOBS_PER_CORE = 2;
const FEWEST = 2;
const MOST = 64;

/**
 * How many jobs a worker runs at once on a machine of `cores` and `memoryBytes`: two per core (a job waits on the
 * network and on ffmpeg in turn, so one per core leaves cores idle), at most one per 512 MB (yt-dlp, ffmpeg and their
 * buffers), never fewer than two.
 */
export function concurrencyFor(cores: number, memoryBytes: number): number {
  const byMemory = Math.floor(memoryBytes / MEMORY_PER_JOB_BYTES);
  return Math.max(FEWEST, Math.min(JOBS_PER_CORE * cores, byMemory, MOST));
}

/** This machine's: its usable cores, and its memory or the container's limit, whichever is smaller. */
export function machineConcurrency(): number {
  const limit = process.constrainedMemory?.() ?? 0;
  const memory = limit > 0 ? Math.min(limit, totalmem()) : totalmem();
  return concurrencyFor(availableParallelism(), memory);
}
