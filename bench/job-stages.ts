import type { EventStore } from '../application/ports/event-store.js';
import { DOWNLOAD_JOB_CATEGORY } from '../domain/download-job/decider.js';
import { streamName } from '../domain/stream-name.js';
import { percentile } from './timed-process.js';

/** Where one job's time went, in milliseconds, from the times its events record and the bench's own clock. */
export interface JobStages {
  /** POST /download, as curl timed it. */
  submit: number;
  /** From the submission's answer to a worker's DownloadStarted: the append -> relay -> queue -> worker path. */
  queuedToStarted: number;
  /** From DownloadStarted to DownloadCompleted: yt-dlp's start-up, its extraction (or loading the stored page), download, post-processing, ffprobe, storing the file. */
  run: number;
  /** From DownloadCompleted to the poll that first said COMPLETED. */
  completionVisible: number;
}

/** The stages of a finished job; `submittedAt` and `answeredAt` are wall-clock times around POST /download, `visibleAt` that of the first COMPLETED poll. */
export async function jobStages(
  store: EventStore,
  jobId: string,
  times: { submitMs: number; answeredAt: number; visibleAt: number },
): Promise<JobStages> {
  const events = await store.readStream(streamName(DOWNLOAD_JOB_CATEGORY, jobId));
  const at = (type: string, field: string) => {
    const event = [...events].reverse().find((candidate) => candidate.type === type);
    if (event === undefined) throw new Error(`the bench job ${jobId} has no ${type}`);
    return Date.parse(String(event.data[field]));
  };
  const started = at('DownloadStarted', 'startedAt');
  const completed = at('DownloadCompleted', 'completedAt');
  return {
    submit: times.submitMs,
    queuedToStarted: started - times.answeredAt,
    run: completed - started,
    completionVisible: times.visibleAt - completed,
  };
}

/** `submit 25, queued->started 40, run 500, completion visible 12` (medians). */
export function describeStages(stages: readonly JobStages[]): string {
  const median = (pick: (stage: JobStages) => number) => percentile(stages.map(pick), 0.5).toFixed(0);
  return (
    `submit ${median((stage) => stage.submit)} ms, queued->started ${median((stage) => stage.queuedToStarted)} ms, ` +
    `run ${median((stage) => stage.run)} ms, completion visible ${median((stage) => stage.completionVisible)} ms`
  );
}

/**
 * The steps inside the run stage, from the worker's `download completed` lines in the service's `log` (`stageMs`: preparing yt-dlp's
 * arguments, yt-dlp itself with its download and post-processing, the check of the delivered file, storing it), as
 * medians over `jobIds`: `prepare 3 ms, ytDlp 380 ms, check 90 ms, store 2 ms (5 of 5 jobs logged)`.
 */
export function describeRunSteps(log: string, jobIds: readonly string[]): string {
  const wanted = new Set(jobIds);
  const steps = new Map<string, number[]>();
  let found = 0;
  for (const line of log.split('\n')) {
    if (!line.includes('"download completed"')) continue;
    const entry = JSON.parse(line) as { jobId?: string; stageMs?: Record<string, number> };
    if (entry.jobId === undefined || !wanted.has(entry.jobId) || entry.stageMs === undefined) continue;
    found += 1;
    for (const [step, ms] of Object.entries(entry.stageMs)) steps.set(step, [...(steps.get(step) ?? []), ms]);
  }
  const parts = [...steps].map(([step, values]) => `${step} ${percentile(values, 0.5).toFixed(0)} ms`);
  return `${parts.join(', ')} (${found} of ${jobIds.length} jobs logged)`;
}
