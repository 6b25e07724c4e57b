import type { SettledJobStatus } from '../../domain/batch/events.js';
import { BATCH_CATEGORY } from '../../domain/batch/decider.js';
import { CANCELLED_REASON } from '../downloads/cancel-download.js';
import type { DownloadJobCommandHandler } from '../downloads/download-job-commands.js';
import type { Clock } from '../ports/clock.js';
import type { EventFilter, RecordedEvent } from '../ports/event-store.js';
import type { AdmitBatchVideos } from './admit-batch-videos.js';
import { type BatchCommandHandler, batchCorrelation } from './batch-commands.js';
import type { BatchJobIndex } from './batch-job-index.js';
import type { WebhookSchedule } from '../webhooks/webhook-schedule.js';
import type { ListBatchSource } from './list-batch-source.js';

/** The events the batch process reacts to: its batches', the ends of jobs, and the account events that free a slot. */
export const BATCH_PROCESS_FILTER: EventFilter = {
  // By category too, so that it wakes only at appends to these, not at every append.
  streamPrefixes: ['batch-', 'download-', 'account-'],
  eventTypes: [
    'BatchRequested',
    'BatchListed',
    'BatchVideoAdmitted',
    'BatchCancelRequested',
    'BatchRetryRequested',
    'BatchFinished',
    'DownloadCompleted',
    'DownloadFailed',
    'DownloadAbandoned',
    'BandwidthCharged',
    'DownloadReleased',
  ],
};

export interface BatchProcessDependencies {
  readonly batches: BatchCommandHandler;
  readonly jobs: DownloadJobCommandHandler;
  readonly index: BatchJobIndex;
  readonly listing: ListBatchSource;
  readonly admission: AdmitBatchVideos;
  readonly clock: Clock;
  /** Where a finished batch with a batchWebhookUrl is put for its `batch.finished`. */
  readonly webhooks?: WebhookSchedule;
  /** Tells the worker running a cancelled job to stop it. */
  readonly announceCancel?: (jobId: string) => Promise<void>;
}

type Data = Record<string, unknown> & { accountId: string };

/**
 * The process that runs batches, reacting to events in the order they were
 * recorded: it lists a batch's source, admits its videos as pending slots
 * free up, tells the batch how each job ended, and stops the jobs of a
 * cancelled batch. Events arrive at least once, and every step is a command
 * whose repeat changes nothing.
 */
export class BatchProcess {
  constructor(private readonly deps: BatchProcessDependencies) {}

  async react(event: Pick<RecordedEvent, 'type' | 'data' | 'streamName'>): Promise<void> {
    const data = event.data as Data;
    if (event.streamName.startsWith(`${BATCH_CATEGORY}-`)) return this.onBatchEvent(event.type, data);
    switch (event.type) {
      case 'DownloadCompleted':
        return this.settle(data.jobId as string, 'completed');
      case 'DownloadFailed':
        return this.settle(data.jobId as string, data.reason === CANCELLED_REASON ? 'cancelled' : 'failed');
      case 'DownloadAbandoned':
        return this.settle(data.jobId as string, 'failed');
      case 'BandwidthCharged':
      case 'DownloadReleased':
        return this.deps.admission.admit(data.accountId);
      default:
        return;
    }
  }

  private async onBatchEvent(type: string, data: Data): Promise<void> {
    const batchId = data.batchId as string;
    switch (type) {
      case 'BatchRequested': {
        const { state } = await this.deps.batches.load(batchId);
        if (state.status !== 'none') await this.deps.listing.list(state);
        return;
      }
      case 'BatchListed':
      case 'BatchRetryRequested':
        await this.deps.index.markOpen(batchId, data.accountId);
        return this.deps.admission.admit(data.accountId);
      case 'BatchVideoAdmitted':
        return this.onAdmitted(batchId, data);
      case 'BatchCancelRequested':
        await this.deps.index.markClosed(batchId);
        for (const jobId of data.runningJobIds as string[]) await this.stopJob(batchId, jobId);
        return;
      case 'BatchFinished':
        await this.deps.index.markClosed(batchId);
        return this.scheduleWebhook(batchId, data.finishedAt as string);
      default:
        return;
    }
  }

  /** Admission writes the job at once; this covers a process that stopped in between. */
  private async onAdmitted(batchId: string, data: Data): Promise<void> {
    const job = { jobId: data.jobId as string, batchId, accountId: data.accountId, videoUrl: data.videoUrl as string };
    await this.deps.index.remember(job);
    const { state } = await this.deps.batches.load(batchId);
    if (state.status !== 'none') await this.deps.admission.submit(state, job);
  }

  private async scheduleWebhook(batchId: string, finishedAt: string): Promise<void> {
    const { state } = await this.deps.batches.load(batchId);
    if (state.status !== 'none' && state.request.batchWebhookUrl !== null)
      await this.deps.webhooks?.schedule(batchId, new Date(finishedAt));
  }

  private async settle(jobId: string, status: SettledJobStatus): Promise<void> {
    const job = await this.deps.index.batchOfJob(jobId);
    if (job === null) return;
    await this.deps.batches.handle(
      job.batchId,
      { type: 'SettleVideo', data: { batchId: job.batchId, jobId, status, now: this.now() } },
      batchCorrelation(job.batchId),
    );
  }

  /** Fails a job still queued or running as a cancel by the client would; one that ended meanwhile is left as it is. */
  private async stopJob(batchId: string, jobId: string): Promise<void> {
    const { state } = await this.deps.jobs.load(jobId);
    if (state.status !== 'IN_QUEUE' && state.status !== 'IN_PROGRESS') return;
    await this.deps.jobs
      .handle(
        jobId,
        { type: 'FailJob', data: { jobId, errorCode: null, reason: CANCELLED_REASON, now: this.now() } },
        batchCorrelation(batchId),
      )
      .catch(() => undefined);
    await this.deps.announceCancel?.(jobId);
  }

  private now(): string {
    return this.deps.clock.now().toISOString();
  }
}
