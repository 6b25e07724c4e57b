/**
 * The downloads this worker process is running, each with an AbortSignal
 * that a cancellation of its job aborts.
 */
export class RunningDownloads {
  private readonly controllers = new Map<string, Set<AbortController>>();

  /** Tracks a download of `jobId` until `done` is called. */
  track(jobId: string): { signal: AbortSignal; done(): void } {
    const controller = new AbortController();
    const forJob = this.controllers.get(jobId) ?? new Set<AbortController>();
    forJob.add(controller);
    this.controllers.set(jobId, forJob);
    return {
      signal: controller.signal,
      done: () => {
        forJob.delete(controller);
        if (forJob.size === 0 && this.controllers.get(jobId) === forJob) this.controllers.delete(jobId);
      },
    };
  }

  /** Aborts every download of the job running here; true when there was one. */
  cancel(jobId: string): boolean {
    const forJob = this.controllers.get(jobId);
    if (forJob === undefined) return false;
    for (const controller of forJob) controller.abort(new DownloadCancelledError(jobId));
    return forJob.size > 0;
  }
}

class DownloadCancelledError extends Error {
  constructor(readonly jobId: string) {
    super(`Download job ${jobId} was cancelled`);
    this.name = 'DownloadCancelledError';
  }
}
