import assert from 'node:assert/strict';
import { ScriptedExtractor, answerAtOnce, writeDownloadedAudio } from '../support/scripted-extractor.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { type WebhookReceiver, startWebhookReceiver } from '../support/webhook-receiver.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Each attempt to the silent receiver waits this long for an answer. */
const WEBHOOK_TIMEOUT_MS = 30_000;

describe('end to end: one account’s silent webhook receiver does not hold back another account’s webhooks', function () {
  this.timeout(120_000);
  let service: TestService;
  const receivers: WebhookReceiver[] = [];
  let videoCounter = 0;

  before(async () => {
    service = await startTestService({
      label: 'webhookfair',
      env: {
        WEBHOOK_ALLOW_HOSTS: '127.0.0.1',
        WEBHOOK_TIMEOUT_MS: String(WEBHOOK_TIMEOUT_MS),
        WEBHOOK_CONCURRENCY: '4',
        WEBHOOK_CONCURRENCY_PER_ACCOUNT: '1',
        WORKER_CONCURRENCY: '4',
      },
      // Every download succeeds at once, so jobs finish as fast as they are submitted.
      overrides: {
        extractor: new ScriptedExtractor({
          probe: answerAtOnce({ title: 'Fairness video', duration: 42, liveStatus: null }),
          download: writeDownloadedAudio,
        }),
      },
    });
  });
  after(async () => {
    // Receivers first: their dropped connections end the hanging attempts, so the worker stops at once.
    await Promise.all(receivers.map((receiver) => receiver.stop()));
    await service?.stop();
  });

  async function submit(apiKey: string, webhookUrl: string): Promise<string> {
    videoCounter += 1;
    const response = await fetch(`${service.api}/download`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url: `https://www.youtube.com/watch?v=fair${videoCounter}`, format: 'audio', webhookUrl }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    return ((await response.json()) as { jobId: string }).jobId;
  }

  async function status(apiKey: string, jobId: string): Promise<string> {
    const response = await fetch(`${service.api}/download/${jobId}`, {
      headers: { Authorization: `Bearer ${apiKey}` },
    });
    return ((await response.json()) as { status: string }).status;
  }

  async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await check())) {
      assert.ok(Date.now() < deadline, `timed out after ${timeoutMs} ms waiting for ${what}`);
      await sleep(50);
    }
  }

  it('delivers the other account’s webhook promptly while the silent receiver’s attempts hang', async () => {
    const silent = await startWebhookReceiver(() => ({ status: 200, delayMs: 600_000 }));
    const prompt = await startWebhookReceiver(() => ({ status: 200 }));
    receivers.push(silent, prompt);
    const noisy = await service.createAccount();
    const quiet = await service.createAccount();

    // More finished jobs than the worker takes from the queue at once (twice its four sending slots), all pointing at the receiver that never answers.
    const noisyJobs: string[] = [];
    for (let index = 0; index < 12; index += 1) noisyJobs.push(await submit(noisy.apiKey, silent.url()));
    await until(
      async () =>
        (await Promise.all(noisyJobs.map((jobId) => status(noisy.apiKey, jobId)))).every(
          (value) => value === 'COMPLETED',
        ),
      'the noisy jobs to complete',
      60_000,
    );
    await until(() => silent.received.length >= 1, 'an attempt to hang on the silent receiver', 30_000);

    const started = Date.now();
    const jobId = await submit(quiet.apiKey, prompt.url());
    // Far below one hanging attempt's 30 s, however busy the machine.
    const [received] = await prompt.waitFor(1, WEBHOOK_TIMEOUT_MS / 2);
    assert.equal(received.headers['x-service-job-id'], jobId);
    assert.ok(received.receivedAt - started < WEBHOOK_TIMEOUT_MS / 2);
    // The noisy account never holds more than its share: one attempt in flight, so none other began while the first hung.
    const first = silent.received[0].receivedAt;
    assert.equal(silent.received.filter((request) => request.receivedAt < first + WEBHOOK_TIMEOUT_MS).length, 1);
  });
});
