import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import type { Logger } from '../../../application/ports/logger.js';
import type { WebhookMetrics } from '../../../application/ports/webhook-metrics.js';
import type { WebhookRequest, WebhookResponse } from '../../../application/ports/webhook-sender.js';
import { DeliverWebhook } from '../../../application/processes/deliver-webhook.js';
import { routeEventToWork } from '../../../application/processes/work-routing.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { WEBHOOK_DELIVERY_CATEGORY, webhookDeliveryDecider } from '../../../domain/webhook-delivery/decider.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { SignedDownloadLinks } from '../../../infrastructure/files/signed-download-links.js';
import { DownloadStatusJson } from '../../../infrastructure/http/download-status-json.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';

const SCHEDULE = [30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 1_920_000, 3_840_000, 7_680_000];
const KEY = 'vds_the-account-key';

interface LogLine {
  level: 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}

function recordingLogger(lines: LogLine[], bound: Record<string, unknown> = {}): Logger {
  const log = (level: LogLine['level']) => (fields: Record<string, unknown>, message: string) =>
    lines.push({ level, fields: { ...bound, ...fields }, message });
  return {
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    child: (fields) => recordingLogger(lines, { ...bound, ...fields }),
  };
}

describe('DeliverWebhook (the worker process, with a scripted receiver and clock)', () => {
  const ids = new RandomIds();

  async function setUp(
    options: {
      answer?: (request: WebhookRequest) => Promise<WebhookResponse>;
      webhookUrl?: string | null;
      key?: string | null;
      keyStoreDown?: boolean;
    } = {},
  ) {
    const store = new InMemoryEventStore();
    const jobs = new CommandHandler(store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, ids);
    const deliveries = new CommandHandler(store, webhookDeliveryDecider, WEBHOOK_DELIVERY_CATEGORY, ids);
    let now = Date.UTC(2026, 5, 1, 12, 0, 0);
    const clock = { now: () => new Date(now) };
    const sent: WebhookRequest[] = [];
    const answer = options.answer ?? (async () => ({ kind: 'response' as const, statusCode: 200, durationMs: 3 }));
    const lines: LogLine[] = [];
    const finished: string[] = [];
    const metrics: WebhookMetrics = {
      attemptFinished() {},
      attemptStarted() {},
      deliveryFinished: (result) => finished.push(result),
    };
    const worker = (workerId: string) =>
      new DeliverWebhook({
        deliveries,
        jobs,
        renderer: new DownloadStatusJson(
          new SignedDownloadLinks(Buffer.alloc(32, 7), 'https://files.example.com', 3600, 0),
        ),
        sender: {
          send: async (request) => {
            sent.push(request);
            return answer(request);
          },
        },
        keys: {
          currentKey: async () => {
            if (options.keyStoreDown) throw new Error('connection to the read model lost');
            return options.key === undefined ? KEY : options.key;
          },
        },
        clock,
        logger: recordingLogger(lines),
        metrics,
        options: { timeoutMs: 15_000, retryDelaysMs: SCHEDULE, workerId },
      });
    const jobId = randomUUID();
    const accountId = randomUUID();
    const iso = () => new Date(now).toISOString();
    await jobs.handle(jobId, {
      type: 'SubmitDownload',
      data: {
        jobId,
        accountId,
        url: 'https://youtu.be/abc',
        format: 'audio',
        startTime: null,
        endTime: null,
        language: null,
        webhookUrl: options.webhookUrl === undefined ? 'https://hooks.example.com/x' : options.webhookUrl,
        title: 'T',
        duration: 10,
        maxFileSizeBytes: 1e9,
        now: iso(),
      },
    });
    await jobs.handle(jobId, {
      type: 'FailJob',
      data: { jobId, errorCode: 'PRIVATE_VIDEO', reason: 'Private', now: iso() },
    });
    const message = { jobId, accountId, occurredAt: iso() };
    const types = async () =>
      (await store.readStream(`download-${jobId}`))
        .map((event) => event.type)
        .filter((type) => type.startsWith('Webhook'));
    return {
      store,
      worker,
      message,
      sent,
      lines,
      finished,
      types,
      deliveries,
      jobId,
      advance: (ms: number) => (now += ms),
      iso,
    };
  }

  it('sends the first attempt at once with the rendered body and the account key, then is done', async () => {
    const { worker, message, sent, types } = await setUp();
    assert.deepEqual(await worker('w1').handle(message), { kind: 'done' });
    assert.equal(sent.length, 1);
    assert.deepEqual(
      [sent[0].attempt, sent[0].event, sent[0].signingKey, JSON.parse(sent[0].body).status],
      [1, 'download.failed', KEY, 'FAILED'],
    );
    assert.deepEqual(await types(), ['WebhookAttemptStarted', 'WebhookAttemptSucceeded']);
    assert.deepEqual(await worker('w1').handle(message), { kind: 'done' });
    assert.equal(sent.length, 1, 'a redelivery after success sends nothing');
  });

  it("marks every command it issues as caused by the event that set off the work, in that event's correlation", async () => {
    const { worker, store, jobId, advance } = await setUp({
      answer: async () => ({ kind: 'response', statusCode: 500, durationMs: 3 }),
    });
    const failed = (await store.readStream(`download-${jobId}`)).find((event) => event.type === 'DownloadFailed');
    assert.ok(failed !== undefined);
    const webhookWork = routeEventToWork(failed).find((work) => work.kind === 'webhook');
    assert.ok(webhookWork !== undefined);
    await worker('w1').handle(webhookWork.payload);
    advance(SCHEDULE[0]);
    await worker('w1').handle(webhookWork.payload);
    const recorded = (await store.readStream(`download-${jobId}`)).filter((event) => event.type.startsWith('Webhook'));
    assert.equal(recorded.length, 4);
    for (const event of recorded) {
      assert.equal(event.metadata.causationId, failed.id);
      assert.equal(event.metadata.correlationId, failed.metadata.correlationId);
    }
  });

  it('a message that comes back early sends nothing and waits for the rest of the delay', async () => {
    const { worker, message, sent, advance } = await setUp({
      answer: async () => ({ kind: 'response', statusCode: 500, durationMs: 3 }),
    });
    assert.deepEqual(await worker('w1').handle(message), { kind: 'retry', afterMs: SCHEDULE[0] });
    advance(10_000);
    assert.deepEqual(await worker('w2').handle(message), { kind: 'retry', afterMs: SCHEDULE[0] - 10_000 });
    assert.equal(sent.length, 1);
    advance(SCHEDULE[0] - 10_000);
    assert.deepEqual(await worker('w2').handle(message), { kind: 'retry', afterMs: SCHEDULE[1] });
    assert.deepEqual(
      sent.map((request) => request.attempt),
      [1, 2],
    );
  });

  it('two workers handling the same job at once send its attempt once', async () => {
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let sending: () => void = () => {};
    const firstSending = new Promise<void>((resolve) => (sending = resolve));
    const { worker, message, sent, types } = await setUp({
      answer: async () => {
        sending();
        await gate;
        return { kind: 'response', statusCode: 204, durationMs: 3 };
      },
    });
    const first = worker('w1').handle(message);
    // Sending, the first worker has claimed the attempt.
    await firstSending;
    const second = await worker('w2').handle(message);
    assert.equal(second.kind, 'retry', 'the second worker waits for the claim instead of sending');
    release();
    assert.deepEqual(await first, { kind: 'done' });
    assert.equal(sent.length, 1);
    assert.deepEqual(await types(), ['WebhookAttemptStarted', 'WebhookAttemptSucceeded']);
  });

  it('an attempt whose worker died is recorded as interrupted once its claim runs out; the next one waits its delay', async () => {
    const { worker, message, sent, types, deliveries, jobId, advance, iso } = await setUp();
    const deadline = new Date(Date.parse(iso()) + 20_000).toISOString();
    await deliveries.handle(jobId, {
      type: 'StartWebhookAttempt',
      data: { jobId, attempt: 1, workerId: 'dead', now: iso(), deadline },
    });
    assert.deepEqual(await worker('w1').handle(message), { kind: 'retry', afterMs: 20_100 });
    advance(20_000);
    assert.deepEqual(await worker('w1').handle(message), { kind: 'retry', afterMs: SCHEDULE[0] });
    assert.equal(sent.length, 0);
    assert.deepEqual(await types(), ['WebhookAttemptStarted', 'WebhookAttemptFailed']);
    advance(SCHEDULE[0]);
    assert.deepEqual(await worker('w1').handle(message), { kind: 'done' });
    assert.deepEqual(
      sent.map((request) => request.attempt),
      [2],
    );
  });

  it('after ten failures it gives up and says so once in the logs, with the job id and never the key', async () => {
    const { worker, message, sent, lines, finished, types, jobId, advance } = await setUp({
      answer: async () => ({ kind: 'error', errorClass: 'connection_refused', detail: 'ECONNREFUSED', durationMs: 1 }),
    });
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      const outcome = await worker(`w${attempt}`).handle(message);
      if (attempt < 10) advance((outcome as { afterMs: number }).afterMs);
      else assert.deepEqual(outcome, { kind: 'done' });
    }
    assert.equal(sent.length, 10);
    assert.deepEqual(await worker('late').handle(message), { kind: 'done' });
    const gaveUp = lines.filter((line) => line.level === 'error');
    assert.equal(gaveUp.length, 1);
    assert.equal(gaveUp[0].fields.jobId, jobId);
    assert.ok(!JSON.stringify(lines).includes(KEY));
    assert.deepEqual(finished, ['gave_up']);
    assert.equal((await types()).at(-1), 'WebhookDeliveryGaveUp');
  });

  it('a failure before sending (the key store is down) claims nothing, so it spends no attempt', async () => {
    const { worker, message, sent, types } = await setUp({ keyStoreDown: true });
    await assert.rejects(worker('w1').handle(message), /read model lost/);
    assert.equal(sent.length, 0);
    assert.deepEqual(await types(), []);
  });

  it('sends nothing for a job without a webhookUrl; an account without an active key fails the attempt unsent', async () => {
    const none = await setUp({ webhookUrl: null });
    assert.deepEqual(await none.worker('w1').handle(none.message), { kind: 'done' });
    assert.deepEqual(await none.types(), []);

    const keyless = await setUp({ key: null });
    assert.deepEqual(await keyless.worker('w1').handle(keyless.message), { kind: 'retry', afterMs: SCHEDULE[0] });
    assert.equal(keyless.sent.length, 0);
    const failed = (await keyless.store.readStream(`download-${keyless.jobId}`)).find(
      (event) => event.type === 'WebhookAttemptFailed',
    );
    assert.equal(failed?.data.errorClass, 'no_signing_key');
  });
});
