import type { BatchJobIndex, IndexedBatchJob } from '../../../application/batches/batch-job-index.js';

/** The batch process's memory in one process, for embedded tests and specs. */
export class InMemoryBatchJobIndex implements BatchJobIndex {
  private readonly jobs = new Map<string, IndexedBatchJob & { submitted: boolean }>();
  private readonly open = new Map<string, string>();

  async remember(job: IndexedBatchJob): Promise<void> {
    if (!this.jobs.has(job.jobId)) this.jobs.set(job.jobId, { ...job, submitted: false });
  }

  async markSubmitted(jobId: string): Promise<void> {
    const job = this.jobs.get(jobId);
    if (job !== undefined) job.submitted = true;
  }

  async batchOfJob(jobId: string): Promise<IndexedBatchJob | null> {
    const job = this.jobs.get(jobId);
    return job === undefined ? null : withoutFlag(job);
  }

  async unsubmitted(accountId: string): Promise<IndexedBatchJob[]> {
    return [...this.jobs.values()].filter((job) => job.accountId === accountId && !job.submitted).map(withoutFlag);
  }

  async markOpen(batchId: string, accountId: string): Promise<void> {
    this.open.set(batchId, accountId);
  }

  async markClosed(batchId: string): Promise<void> {
    this.open.delete(batchId);
  }

  async openBatches(accountId: string): Promise<string[]> {
    return [...this.open].filter(([, owner]) => owner === accountId).map(([batchId]) => batchId);
  }
}

function withoutFlag({ jobId, batchId, accountId, videoUrl }: IndexedBatchJob): IndexedBatchJob {
  return { jobId, batchId, accountId, videoUrl };
}
