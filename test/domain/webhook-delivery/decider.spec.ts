import type { DownloadRequested } from '../../../domain/download-job/events.js';
import { InvalidTransitionError, NotFoundError } from '../../../domain/errors.js';
import type { WebhookAttemptResult } from '../../../domain/webhook-delivery/commands.js';
import { webhookDeliveryDecider } from '../../../domain/webhook-delivery/decider.js';
import type { WebhookDeliveryEvent } from '../../../domain/webhook-delivery/evolve.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(webhookDeliveryDecider);
const jobId = 'job-1';
const accountId = 'acc-1';
const webhookUrl = 'https://hooks.example.com/finished';
const schedule = [30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_840_000, 7_680_000];
const at = (seconds: number) => new Date(Date.UTC(2026, 2, 1) + seconds * 1000).toISOString();

const requestedWith = (url: string | null): WebhookDeliveryEvent => ({
  type: 'DownloadRequested',
  data: {
    jobId,
    accountId,
    url: 'https://www.youtube.com/watch?v=abc',
    format: 'audio',
    startTime: null,
    endTime: null,
    language: null,
    webhookUrl: url,
    title: 'A video',
    duration: 61,
    maxFileSizeBytes: 500_000_000,
    requestedAt: at(0),
  } satisfies DownloadRequested['data'],
});
const requested = requestedWith(webhookUrl);
const completed: WebhookDeliveryEvent = {
  type: 'DownloadCompleted',
  data: {
    jobId,
    accountId,
    fileKey: 'k',
    fileSize: 1,
    actualFormat: 'audio',
    mimeType: 'audio/mp4',
    fileExtension: 'm4a',
    completedAt: at(10),
  },
};
const failedJob: WebhookDeliveryEvent = {
  type: 'DownloadFailed',
  data: { jobId, accountId, errorCode: 'PRIVATE_VIDEO', reason: 'Private', failedAt: at(10) },
};

const start = (attempt: number, now: string) => ({
  type: 'StartWebhookAttempt' as const,
  data: { jobId, attempt, workerId: 'w1', now, deadline: new Date(Date.parse(now) + 20_000).toISOString() },
});
const started = (
  attempt: number,
  now: string,
  event: 'download.completed' | 'download.failed' = 'download.completed',
): WebhookDeliveryEvent => ({
  type: 'WebhookAttemptStarted',
  data: {
    jobId,
    accountId,
    attempt,
    event,
    url: webhookUrl,
    workerId: 'w1',
    startedAt: now,
    deadline: new Date(Date.parse(now) + 20_000).toISOString(),
  },
});
const record = (attempt: number, result: WebhookAttemptResult, now: string) => ({
  type: 'RecordWebhookAttemptOutcome' as const,
  data: { jobId, attempt, result, durationMs: 120, now, retryDelaysMs: schedule },
});
const serverError: WebhookAttemptResult = { kind: 'failed', statusCode: 500, errorClass: 'http_status', detail: null };
const failure = (
  attempt: number,
  now: string,
  nextDelayMs: number | null,
  statusCode: number | null = 500,
): WebhookDeliveryEvent => ({
  type: 'WebhookAttemptFailed',
  data: {
    jobId,
    accountId,
    attempt,
    statusCode,
    errorClass: 'http_status',
    detail: null,
    durationMs: 120,
    finishedAt: now,
    nextDelayMs,
    nextAttemptAt: nextDelayMs === null ? null : new Date(Date.parse(now) + nextDelayMs).toISOString(),
  },
});

/** Attempts 1..count, each failing with 500 at its due time. */
function failedAttempts(count: number): WebhookDeliveryEvent[] {
  const events: WebhookDeliveryEvent[] = [];
  let now = 11;
  for (let attempt = 1; attempt <= count; attempt += 1) {
    events.push(started(attempt, at(now)), failure(attempt, at(now + 1), attempt < 10 ? schedule[attempt - 1] : null));
    now += 1 + (schedule[attempt - 1] ?? 0) / 1000;
  }
  return events;
}

describe('webhook delivery decider', () => {
  it('the first attempt starts as soon as the job is finished, named after its terminal status', () => {
    spec
      .given([requested, completed])
      .when(start(1, at(11)))
      .then([started(1, at(11))]);
    spec
      .given([requested, failedJob])
      .when(start(1, at(11)))
      .then([started(1, at(11), 'download.failed')]);
  });

  it('a 2xx acknowledges: the attempt succeeds and the delivery is done', () => {
    spec
      .given([requested, completed, started(1, at(11))])
      .when(record(1, { kind: 'acknowledged', statusCode: 204 }, at(12)))
      .then([
        {
          type: 'WebhookAttemptSucceeded',
          data: { jobId, accountId, attempt: 1, statusCode: 204, durationMs: 120, finishedAt: at(12) },
        },
      ]);
  });

  it('a failed attempt schedules the next one after the configured delay, from the failure', () => {
    spec
      .given([requested, completed, started(1, at(11))])
      .when(record(1, serverError, at(12)))
      .then([failure(1, at(12), 30_000)]);
    spec
      .given([requested, completed, ...failedAttempts(3), started(4, at(500))])
      .when(record(4, serverError, at(501)))
      .then([failure(4, at(501), 240_000)]);
  });

  it('the next attempt is refused before its time and accepted at it', () => {
    spec
      .given([requested, completed, started(1, at(11)), failure(1, at(12), 30_000)])
      .when(start(2, at(41)))
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested, completed, started(1, at(11)), failure(1, at(12), 30_000)])
      .when(start(2, at(42)))
      .then([started(2, at(42))]);
  });

  it('410 stops at once: the attempt fails with no next one and the delivery stops', () => {
    spec
      .given([requested, completed, started(1, at(11))])
      .when(record(1, { kind: 'failed', statusCode: 410, errorClass: 'http_status', detail: null }, at(12)))
      .then([
        failure(1, at(12), null, 410),
        { type: 'WebhookDeliveryStopped', data: { jobId, accountId, attempt: 1, statusCode: 410, stoppedAt: at(12) } },
      ]);
  });

  it('the tenth failure gives up', () => {
    const nine = failedAttempts(9);
    spec
      .given([requested, completed, ...nine, started(10, at(20_000))])
      .when(record(10, serverError, at(20_001)))
      .then([
        failure(10, at(20_001), null),
        { type: 'WebhookDeliveryGaveUp', data: { jobId, accountId, attempts: 10, gaveUpAt: at(20_001) } },
      ]);
  });

  it('there is no attempt 11, and nothing after a success or a 410', () => {
    spec
      .given([
        requested,
        completed,
        ...failedAttempts(10),
        { type: 'WebhookDeliveryGaveUp', data: { jobId, accountId, attempts: 10, gaveUpAt: at(30_000) } },
      ])
      .when(start(11, at(40_000)))
      .thenThrows(InvalidTransitionError);
    // Even a stream that somehow lacks the give-up is capped.
    spec
      .given([requested, completed, ...failedAttempts(10)])
      .when(start(11, at(40_000)))
      .thenThrows(InvalidTransitionError, (error) => {
        if (!/at most 10/.test(error.message)) throw error;
      });
    const acknowledged: WebhookDeliveryEvent = {
      type: 'WebhookAttemptSucceeded',
      data: { jobId, accountId, attempt: 1, statusCode: 200, durationMs: 5, finishedAt: at(12) },
    };
    spec
      .given([requested, completed, started(1, at(11)), acknowledged])
      .when(start(2, at(100)))
      .thenThrows(InvalidTransitionError);
    const stopped: WebhookDeliveryEvent = {
      type: 'WebhookDeliveryStopped',
      data: { jobId, accountId, attempt: 1, statusCode: 410, stoppedAt: at(12) },
    };
    spec
      .given([requested, completed, started(1, at(11)), failure(1, at(12), null, 410), stopped])
      .when(start(2, at(100)))
      .thenThrows(InvalidTransitionError);
  });

  it('a claim or an outcome already recorded is not recorded twice', () => {
    spec
      .given([requested, completed, started(1, at(11))])
      .when(start(1, at(11)))
      .thenNothingHappened();
    spec
      .given([requested, completed, started(1, at(11)), failure(1, at(12), 30_000)])
      .when(record(1, { kind: 'acknowledged', statusCode: 200 }, at(13)))
      .thenNothingHappened();
  });

  it('refuses a second attempt while one is under way, skipping an attempt, and outcomes of attempts never started', () => {
    spec
      .given([requested, completed, started(1, at(11))])
      .when(start(2, at(100)))
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested, completed])
      .when(start(2, at(11)))
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested, completed])
      .when(record(1, serverError, at(12)))
      .thenThrows(InvalidTransitionError);
  });

  it('an attempt whose claim ran out without an outcome is recorded as interrupted, but not before its deadline', () => {
    const abandon = (now: string) => ({
      type: 'AbandonWebhookAttempt' as const,
      data: { jobId, attempt: 1, now, retryDelaysMs: schedule },
    });
    spec
      .given([requested, completed, started(1, at(11))])
      .when(abandon(at(20)))
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested, completed, started(1, at(11))])
      .when(abandon(at(31)))
      .then([
        {
          type: 'WebhookAttemptFailed',
          data: {
            jobId,
            accountId,
            attempt: 1,
            statusCode: null,
            errorClass: 'interrupted',
            detail: `no outcome by ${at(31)}`,
            durationMs: null,
            finishedAt: at(31),
            nextDelayMs: 30_000,
            nextAttemptAt: at(61),
          },
        },
      ]);
    spec
      .given([requested, completed, started(1, at(11)), failure(1, at(12), 30_000)])
      .when(abandon(at(40)))
      .thenNothingHappened();
  });

  it('nothing is sent for a job without a webhookUrl, an unfinished job, or no job', () => {
    spec
      .given([requestedWith(null), completed])
      .when(start(1, at(11)))
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested])
      .when(start(1, at(11)))
      .thenThrows(InvalidTransitionError);
    spec
      .given([])
      .when(start(1, at(11)))
      .thenThrows(NotFoundError);
  });
});
