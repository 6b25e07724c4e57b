import type { JobLedger, TrackedJob } from './job-ledger.js';
import type { TrackedBatch } from './tracked-batch.js';
import type { SoakHttp } from './soak-http.js';

/** Polls every job not yet terminal, as its client would, a few at a time. */
export class JobPoller {
  private stopped = false;
  private loop: Promise<void> | null = null;

  constructor(
    private readonly http: SoakHttp,
    private readonly ledger: JobLedger,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.loop;
  }

  /** Polls once more, then until every job is terminal or `deadline` passes; answers whether all are. */
  async untilAllTerminal(deadline: number): Promise<boolean> {
    const allTerminal = () => this.ledger.pending().length === 0 && this.ledger.pendingBatches().length === 0;
    while (!allTerminal() && Date.now() < deadline) {
      await this.pollAll();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
    return allTerminal();
  }

  /** Polls one job until it is terminal or `deadline` passes. */
  async untilTerminal(job: TrackedJob, deadline: number): Promise<boolean> {
    while (!this.ledger.isTerminal(job) && Date.now() < deadline) {
      await this.poll(job);
      if (!this.ledger.isTerminal(job)) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    return this.ledger.isTerminal(job);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      await this.pollAll();
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }

  private async pollAll(): Promise<void> {
    // Batches first: a batch's newly admitted jobs are then polled in the same round.
    await Promise.all(this.ledger.pendingBatches().map((batch) => this.pollBatch(batch)));
    const pending = this.ledger.pending();
    for (let index = 0; index < pending.length; index += 8)
      await Promise.all(pending.slice(index, index + 8).map((job) => this.poll(job)));
  }

  private async pollBatch(batch: TrackedBatch): Promise<void> {
    const outcome = await this.http.send('GET', `/download-batch/${batch.batchId}?limit=100`, { key: batch.key });
    if (outcome.status === 200 && typeof outcome.body?.status === 'string' && Array.isArray(outcome.body.jobs))
      this.ledger.observeBatch(batch, outcome.body.status, outcome.body.jobs);
  }

  private async poll(job: TrackedJob): Promise<void> {
    const outcome = await this.http.send('GET', `/${job.kind}/${job.jobId}`, { key: job.key });
    if (outcome.status === 200 && typeof outcome.body?.status === 'string')
      this.ledger.observe(
        job,
        outcome.body.status,
        typeof outcome.body.errorCode === 'string' ? outcome.body.errorCode : null,
      );
  }
}
