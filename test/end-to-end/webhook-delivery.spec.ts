import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Registry } from 'prom-client';
import type { Clock } from '../../application/ports/clock.js';
import type { EventStore, RecordedEvent } from '../../application/ports/event-store.js';
import { ExtractionError } from '../../application/ports/extractor/extraction-error.js';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { OPENAPI_DOCUMENT as openApiDocument } from '../../infrastructure/features/features.js';
import { OpenApiSchemas, jsonPointer } from '../../infrastructure/http/openapi/openapi-ajv.js';
import { createLogger } from '../../infrastructure/observability/create-logger.js';
import { type RunningService, startService } from '../../infrastructure/service.js';
import type { ResolveHost } from '../../infrastructure/webhooks/checked-address-lookup.js';
import { verifyWebhookSignature } from '../../infrastructure/webhooks/verify-webhook-signature.js';
import { ScriptedExtractor, answerAtOnce, writeDownloadedAudio } from '../support/scripted-extractor.js';
import { type TestService, startTestService } from '../support/test-service.js';
import {
  type Answer,
  type ReceivedWebhook,
  type WebhookReceiver,
  startWebhookReceiver,
} from '../support/webhook-receiver.js';

const runFile = promisify(execFile);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const SCHEDULE = [400, 1500, 500, 600, 700, 800, 900, 1000, 1100];
const TIMEOUT_MS = 1000;

/** Downloads succeed at once, except videos whose id starts with `fail`, which are private. */
function stubExtractor(): ScriptedExtractor {
  return new ScriptedExtractor({
    probe: answerAtOnce({ title: 'Webhook «test» video', duration: 42, liveStatus: null }),
    download: async (request) => {
      if (new URL(request.url).searchParams.get('v')?.startsWith('fail'))
        throw new ExtractionError('PRIVATE_VIDEO', 'Private video');
      return writeDownloadedAudio(request, Buffer.alloc(2048, 1));
    },
  });
}

/** The system clock, moved forward on demand, so a retry can fall minutes after the attempt before it without waiting. */
class AdjustableClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const contract = new OpenApiSchemas(openApiDocument, { useDefaults: false, allErrors: true });

/** The request as the OpenAPI document's `download.finished` webhook describes it: body schema and every header. */
function assertMatchesWebhookContract(received: ReceivedWebhook): void {
  const validateBody = contract.validator('/components/schemas/DownloadFinishedEvent');
  assert.ok(validateBody(JSON.parse(received.rawBody.toString('utf8'))), JSON.stringify(validateBody.errors));
  openApiDocument.webhooks['download.finished'].post.parameters.forEach((parameter, index) => {
    const raw = received.headers[parameter.name.toLowerCase()];
    assert.equal(typeof raw, 'string', `header ${parameter.name}`);
    const value = parameter.schema.type === 'integer' ? Number(raw) : raw;
    const validate = contract.validator(
      jsonPointer('webhooks', 'download.finished', 'post', 'parameters', String(index), 'schema'),
    );
    assert.ok(validate(value), `header ${parameter.name}: ${JSON.stringify(validate.errors)}`);
  });
}

/** `hooks.example.com` looks public and passes the submit check, but resolves to loopback. */
const resolveHost: ResolveHost = async (hostname) => {
  if (hostname === 'hooks.example.com') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

describe('end to end: webhook delivery to real receivers on loopback', function () {
  this.timeout(90_000);
  const clock = new AdjustableClock();
  const overrides = { extractor: stubExtractor(), webhookResolver: resolveHost, clock };
  let service: TestService;
  let worker: RunningService;
  let store: EventStore;
  let account: { accountId: string; apiKey: string };
  const receivers: WebhookReceiver[] = [];
  let videoCounter = 0;

  const startWorker = () =>
    startService(service.config, new Set(['worker']), createLogger(service.config.observability.logLevel), overrides);

  before(async () => {
    // The worker runs apart from the API and projector, so a test can stop and restart it alone.
    service = await startTestService({
      label: 'webhooks',
      roles: ['api', 'projector'],
      env: {
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        WEBHOOK_RETRY_SCHEDULE_MS: SCHEDULE.join(','),
        WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS),
      },
      overrides,
    });
    worker = await startWorker();
    store = service.service.container.resolve<EventStore>(TOKENS.eventStore);
    account = await service.createAccount();
  });
  after(async () => {
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await worker?.stop();
    await service?.stop();
  });

  async function receiver(answer?: (n: number) => Answer): Promise<WebhookReceiver> {
    const started = await startWebhookReceiver(answer);
    receivers.push(started);
    return started;
  }

  async function submit(webhookUrl: string, outcome: 'ok' | 'fail' = 'ok', apiKey = account.apiKey): Promise<string> {
    videoCounter += 1;
    const url = `https://www.youtube.com/watch?v=${outcome === 'fail' ? 'fail' : 'ok'}${videoCounter}`;
    const response = await fetch(`${service.api}/download`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url, format: 'audio', webhookUrl }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { jobId: string }).jobId;
  }

  async function pollText(jobId: string): Promise<string> {
    const response = await fetch(`${service.api}/download/${jobId}`, {
      headers: { Authorization: `Bearer ${account.apiKey}` },
    });
    assert.equal(response.status, 200);
    return response.text();
  }

  const deliveryEvents = async (jobId: string): Promise<RecordedEvent[]> =>
    (await store.readStream(`download-${jobId}`)).filter((event) => event.type.startsWith('Webhook'));

  async function waitForEvent(jobId: string, type: string, count = 1, timeoutMs = 30_000): Promise<RecordedEvent[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const events = await deliveryEvents(jobId);
      if (events.filter((event) => event.type === type).length >= count) return events;
      assert.ok(
        Date.now() < deadline,
        `no ${count} × ${type} for job ${jobId}; have ${events.map((e) => e.type).join(', ')}`,
      );
      await sleep(50);
    }
  }

  /** The completed body's downloadUrl expires at a whole minute after now; keep a poll in the same minute as the attempt. */
  async function awayFromMinuteBoundary(): Promise<void> {
    const second = new Date().getUTCSeconds();
    if (second >= 50) await sleep((61 - second) * 1000);
  }

  /**
   * A completed job delivered to a receiver answering 200, and a poll of it, both in one minute of the clock: the
   * link in each expires at a whole minute after it was signed. On a busy machine the two can still fall on either
   * side of a minute; then another job is tried.
   */
  async function deliveredAndPolledInOneMinute(): Promise<{
    target: WebhookReceiver;
    jobId: string;
    received: ReceivedWebhook;
    polled: string;
  }> {
    const minute = (ms: number) => Math.floor(ms / 60_000);
    const deadline = Date.now() + 60_000;
    for (;;) {
      await awayFromMinuteBoundary();
      const target = await receiver(() => ({ status: 200 }));
      const jobId = await submit(target.url());
      const [received] = await target.waitFor(1);
      const polled = await pollText(jobId);
      const polledBy = Date.now();
      const verdict = verifyWebhookSignature(
        received.rawBody,
        received.headers['x-service-signature'] as string,
        account.apiKey,
      );
      if (verdict.ok && minute(verdict.timestamp * 1000) === minute(polledBy))
        return { target, jobId, received, polled };
      assert.ok(Date.now() < deadline, 'no delivery and poll fell in one minute');
    }
  }

  it('signs download.completed with the account key, and its body is byte for byte what GET answers', async () => {
    const { target, jobId, received, polled } = await deliveredAndPolledInOneMinute();

    assert.equal(received.rawBody.toString('utf8'), polled);
    assertMatchesWebhookContract(received);
    const body = JSON.parse(polled);
    assert.equal(body.status, 'COMPLETED');
    assert.match(body.downloadUrl, /\/files\//);
    assert.equal(received.headers['content-type'], 'application/json');
    assert.equal(received.headers['x-service-event'], 'download.completed');
    assert.equal(received.headers['x-service-job-id'], jobId);
    assert.equal(received.headers['x-service-attempt'], '1');

    const signature = received.headers['x-service-signature'] as string;
    const verdict = verifyWebhookSignature(received.rawBody, signature, account.apiKey);
    assert.equal(verdict.ok, true);
    assert.ok(verdict.ok && Math.abs(verdict.timestamp * 1000 - received.receivedAt) < 5_000, 'signed at send time');
    const later = verifyWebhookSignature(received.rawBody, signature, account.apiKey, {
      now: received.receivedAt + 301_000,
    });
    assert.equal(!later.ok && later.reason, 'timestamp_outside_tolerance');

    const events = await waitForEvent(jobId, 'WebhookAttemptSucceeded');
    assert.deepEqual(
      events.map((event) => event.type),
      ['WebhookAttemptStarted', 'WebhookAttemptSucceeded'],
    );
    assert.equal(events[1].data.statusCode, 200);
    await sleep(SCHEDULE[0] + 500);
    assert.equal(target.received.length, 1, 'acknowledged once, sent once');
  });

  it("signs with the account's newest key that is not revoked", async () => {
    const admin = service.service.container.resolve(AccountAdministration);
    const owner = await service.createAccount();
    const newer = await admin.issueKey(owner.accountId);
    const newest = await admin.issueKey(owner.accountId);
    await admin.revokeKey(owner.accountId, newest.keyId);
    await service.settle();
    const target = await receiver();
    await submit(target.url(), 'fail', owner.apiKey);
    const [received] = await target.waitFor(1);
    const signature = received.headers['x-service-signature'] as string;
    assert.equal(verifyWebhookSignature(received.rawBody, signature, newer.apiKey).ok, true);
    assert.equal(verifyWebhookSignature(received.rawBody, signature, owner.apiKey).ok, false);
    assert.equal(verifyWebhookSignature(received.rawBody, signature, newest.apiKey).ok, false);
  });

  it('sends download.failed with the failed body, identical to GET', async () => {
    const target = await receiver(() => ({ status: 204 }));
    const jobId = await submit(target.url(), 'fail');
    const [received] = await target.waitFor(1);
    assert.equal(received.headers['x-service-event'], 'download.failed');
    assert.equal(received.rawBody.toString('utf8'), await pollText(jobId));
    assertMatchesWebhookContract(received);
    assert.equal(JSON.parse(received.rawBody.toString('utf8')).errorCode, 'PRIVATE_VIDEO');
    await waitForEvent(jobId, 'WebhookAttemptSucceeded');
  });

  it('a retried download.completed carries a link signed at its own attempt, and otherwise the body GET answers then', async () => {
    try {
      const target = await receiver((n) => {
        // Two minutes pass between the first attempt and its retry, as the service sees it: the retry's link must expire later.
        if (n === 1) clock.offsetMs = 120_000;
        return { status: n === 1 ? 500 : 200 };
      });
      const jobId = await submit(target.url());
      const [first, second] = await target.waitFor(2);
      const polled = await pollText(jobId);
      await waitForEvent(jobId, 'WebhookAttemptSucceeded');

      assert.deepEqual(
        [first, second].map((request) => [request.headers['x-service-event'], request.headers['x-service-attempt']]),
        [
          ['download.completed', '1'],
          ['download.completed', '2'],
        ],
      );
      const expires = (request: ReceivedWebhook) =>
        Number(new URL(JSON.parse(request.rawBody.toString('utf8')).downloadUrl).searchParams.get('expires'));
      assert.ok(
        expires(second) >= expires(first) + 120,
        `the retry's link expires at ${expires(second)}, the first at ${expires(first)}`,
      );
      const verdict = verifyWebhookSignature(
        second.rawBody,
        second.headers['x-service-signature'] as string,
        account.apiKey,
      );
      assert.ok(verdict.ok);
      const ttl = service.config.retention.downloadLinkTtlSeconds;
      assert.ok(
        expires(second) >= verdict.timestamp + ttl && expires(second) <= verdict.timestamp + ttl + 61,
        'signed for the lifetime from the attempt',
      );

      // Byte for byte what GET answers, but for the link, which each signs at its own moment.
      const link = (text: string) => JSON.parse(text).downloadUrl as string;
      const retried = second.rawBody.toString('utf8');
      assert.equal(retried, polled.replace(link(polled), link(retried)));
      assert.equal(
        first.rawBody.toString('utf8'),
        retried.replace(link(retried), link(first.rawBody.toString('utf8'))),
      );
      assert.equal((await fetch(link(retried))).status, 200, "the retry's link serves the file");
    } finally {
      clock.offsetMs = 0;
    }
  });

  it('500, 500, then 200: attempts 1, 2, 3, spaced by the schedule, each signed afresh, all in the job stream', async () => {
    const target = await receiver((n) => ({ status: n <= 2 ? 500 : 200 }));
    const jobId = await submit(target.url());
    const received = await target.waitFor(3);
    assert.deepEqual(
      received.map((request) => request.headers['x-service-attempt']),
      ['1', '2', '3'],
    );
    for (const request of received)
      assert.equal(
        verifyWebhookSignature(request.rawBody, request.headers['x-service-signature'] as string, account.apiKey).ok,
        true,
      );
    const gap1 = received[1].receivedAt - received[0].receivedAt;
    const gap2 = received[2].receivedAt - received[1].receivedAt;
    // Never early; how late a retry comes depends on the machine's load, and the lateness metric below reports it.
    assert.ok(gap1 >= SCHEDULE[0], `first gap ${gap1} ms`);
    assert.ok(gap2 >= SCHEDULE[1], `second gap ${gap2} ms`);

    const events = await waitForEvent(jobId, 'WebhookAttemptSucceeded');
    assert.deepEqual(
      events.map((event) => `${event.type}:${event.data.attempt}`),
      [
        'WebhookAttemptStarted:1',
        'WebhookAttemptFailed:1',
        'WebhookAttemptStarted:2',
        'WebhookAttemptFailed:2',
        'WebhookAttemptStarted:3',
        'WebhookAttemptSucceeded:3',
      ],
    );
    const failures = events.filter((event) => event.type === 'WebhookAttemptFailed');
    assert.deepEqual(
      failures.map((event) => [event.data.statusCode, event.data.errorClass, event.data.nextDelayMs]),
      [
        [500, 'http_status', SCHEDULE[0]],
        [500, 'http_status', SCHEDULE[1]],
      ],
    );
    for (const failure of failures) assert.equal(typeof failure.data.durationMs, 'number');

    const metrics = await worker.container.resolve<Registry>(TOKENS.metrics).metrics();
    assert.match(metrics, /webhook_attempts_total\{outcome="http_status"\} [2-9]/);
    assert.match(metrics, /webhook_attempts_total\{outcome="acknowledged"\} [1-9]/);
    assert.match(metrics, /webhook_delivery_lag_seconds_count\{result="acknowledged"\} [1-9]/);
    assert.match(metrics, /webhook_attempt_start_lateness_seconds_count [1-9]/);
  });

  it('410 stops at once: exactly one attempt', async () => {
    const target = await receiver(() => ({ status: 410 }));
    const jobId = await submit(target.url());
    await target.waitFor(1);
    const events = await waitForEvent(jobId, 'WebhookDeliveryStopped');
    assert.deepEqual(
      events.map((event) => event.type),
      ['WebhookAttemptStarted', 'WebhookAttemptFailed', 'WebhookDeliveryStopped'],
    );
    await sleep(SCHEDULE[0] + 1_000);
    assert.equal(target.received.length, 1);
  });

  it('a 302 is a failed attempt and its target never sees a request', async () => {
    const elsewhere = await receiver();
    const target = await receiver((n) =>
      n === 1 ? { status: 302, headers: { Location: elsewhere.url('/stolen') } } : { status: 200 },
    );
    const jobId = await submit(target.url());
    await target.waitFor(2);
    const events = await waitForEvent(jobId, 'WebhookAttemptSucceeded');
    const failed = events.find((event) => event.type === 'WebhookAttemptFailed');
    assert.deepEqual([failed?.data.statusCode, failed?.data.errorClass], [302, 'http_status']);
    assert.equal(elsewhere.received.length, 0);
  });

  it('a receiver slower than the acknowledgement limit is a failed attempt; a 204 then acknowledges', async () => {
    const target = await receiver((n) => (n === 1 ? { status: 200, delayMs: TIMEOUT_MS + 1_000 } : { status: 204 }));
    const jobId = await submit(target.url());
    const events = await waitForEvent(jobId, 'WebhookAttemptSucceeded');
    const failed = events.find((event) => event.type === 'WebhookAttemptFailed');
    assert.equal(failed?.data.errorClass, 'timeout');
    assert.ok((failed?.data.durationMs as number) >= TIMEOUT_MS - 50);
    assert.equal(events.find((event) => event.type === 'WebhookAttemptSucceeded')?.data.statusCode, 204);
    assert.equal(target.received.length, 2);
  });

  it('refuses at delivery a public-looking name that resolves to loopback; the receiver sees nothing', async () => {
    const target = await receiver();
    const jobId = await submit(`http://hooks.example.com:${target.port}/hook`);
    const events = await waitForEvent(jobId, 'WebhookAttemptFailed', 2);
    const failures = events.filter((event) => event.type === 'WebhookAttemptFailed');
    for (const failure of failures) {
      assert.equal(failure.data.errorClass, 'address_refused');
      assert.match(String(failure.data.detail), /hooks\.example\.com resolves to 127\.0\.0\.1/);
    }
    assert.equal(target.received.length, 0);
  });

  it('a worker stopped between attempts resumes after restart: nothing lost, early or repeated', async function () {
    this.timeout(150_000);
    // A longer wait before attempt 3, so the worker is surely gone when it falls due (the stop is checked below).
    const longWaitMs = 7_000;
    await worker.stop();
    worker = await startService(
      {
        ...service.config,
        webhooks: { ...service.config.webhooks, retryScheduleMs: [SCHEDULE[0], longWaitMs, ...SCHEDULE.slice(2)] },
      },
      new Set(['worker']),
      createLogger(service.config.observability.logLevel),
      overrides,
    );
    let second: RunningService | null = null;
    try {
      const target = await receiver((n) => ({ status: n <= 2 ? 500 : 200 }));
      const jobId = await submit(target.url());
      const afterSecond = await waitForEvent(jobId, 'WebhookAttemptFailed', 2);
      await worker.stop();
      assert.equal(target.received.length, 2, 'the stopped worker sent nothing more');
      const dueAt = Date.parse(
        String(afterSecond.filter((event) => event.type === 'WebhookAttemptFailed')[1].data.nextAttemptAt),
      );
      assert.ok(Date.now() < dueAt - 2_000, `restarting before attempt 3 is due, not ${Date.now() - dueAt} ms after`);

      // Two workers now, with the short schedule: the recorded due time still holds, and neither sends what the other did.
      worker = await startWorker();
      second = await startWorker();
      const received = await target.waitFor(3, longWaitMs + 10_000);
      // Not early; a lost attempt fails the wait above.
      assert.ok(received[2].receivedAt >= dueAt, `attempt 3 came ${dueAt - received[2].receivedAt} ms early`);
      await waitForEvent(jobId, 'WebhookAttemptSucceeded');
      await sleep(1_000);
      assert.deepEqual(
        target.received.map((request) => request.headers['x-service-attempt']),
        ['1', '2', '3'],
      );
      const started = (await deliveryEvents(jobId)).filter((event) => event.type === 'WebhookAttemptStarted');
      assert.deepEqual(
        started.map((event) => event.data.attempt),
        [1, 2, 3],
      );
    } finally {
      await second?.stop();
      // The next tests need a worker with the short schedule, whatever happened here.
      await worker.stop();
      worker = await startWorker();
    }
  });

  it('gives up after ten failed attempts, and the audit CLI prints the whole delivery history', async () => {
    const target = await receiver(() => ({ status: 503 }));
    const jobId = await submit(target.url());
    const events = await waitForEvent(jobId, 'WebhookDeliveryGaveUp', 1, 45_000);
    assert.deepEqual(
      target.received.map((request) => request.headers['x-service-attempt']),
      ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10'],
    );
    assert.equal(events.filter((event) => event.type === 'WebhookAttemptStarted').length, 10);

    const env = {
      ...process.env,
      DATABASE_URL: service.config.storage.databaseUrl,
      MASTER_KEY_FILE: service.config.security.masterKeyFile,
      LOG_LEVEL: 'silent',
    };
    const cli = path.resolve('build/infrastructure/cli/audit.js');
    const json = JSON.parse((await runFile(process.execPath, [cli, '--job', jobId, '--json'], { env })).stdout);
    assert.equal(json.jobId, jobId);
    assert.equal(json.attempts.length, 10);
    assert.deepEqual(json.attempts[0], {
      attempt: 1,
      startedAt: json.attempts[0].startedAt,
      workerId: json.attempts[0].workerId,
      outcome: 'failed',
      statusCode: 503,
      errorClass: 'http_status',
      detail: null,
      durationMs: json.attempts[0].durationMs,
      finishedAt: json.attempts[0].finishedAt,
      nextDelayMs: SCHEDULE[0],
    });
    assert.equal(json.result, 'gave_up');
    const text = (await runFile(process.execPath, [cli, '--job', jobId], { env })).stdout;
    assert.match(text, /attempt 10 .*503/);
    assert.match(text, /gave up after 10 attempts/);
    assert.ok(!text.includes(account.apiKey));
  });
});
