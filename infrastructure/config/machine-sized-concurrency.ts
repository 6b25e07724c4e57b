import { availableParallelism, totalmem } from 'node:os';

export interface MachineSize {
  cores: number;
  memoryBytes: number;
}

/** A download holds yt-dlp (Python) and often ffmpeg: about this much memory at its peak. */
const MEMORY_PER_DOWNLOAD_BYTES = 384 * 1024 * 1024;
/** Left to the service itself, PostgreSQL's clients and the page cache of the files it serves. */
const MEMORY_KEPT_BACK_BYTES = 1024 * 1024 * 1024;

/**
 * Downloads at once per worker process when `WORKER_CONCURRENCY` is unset.
 * A download waits on the platform for most of its time (transfer, throttling), so two per core keep the
 * cores busy without queueing the encodes; memory caps it on small machines; never below 2, so one slow
 * job never holds the whole worker up.
 */
export function machineSizedConcurrency({ cores, memoryBytes }: MachineSize): number {
  const byCores = 2 * Math.max(1, cores);
  const byMemory = Math.floor((memoryBytes - MEMORY_KEPT_BACK_BYTES) / MEMORY_PER_DOWNLOAD_BYTES);
  return Math.min(16, Math.max(2, Math.min(byCores, byMemory)));
}

export const thisMachine = (): MachineSize => ({ cores: availableParallelism(), memoryBytes: totalmem() });
