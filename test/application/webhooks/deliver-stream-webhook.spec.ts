import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { batchCorrelation } from '../../../application/batches/batch-commands.js';
import { batchFinishedBody } from '../../../application/batches/batch-finished-body.js';
import { DeliverStreamWebhook } from '../../../application/webhooks/deliver-stream-webhook.js';
import { CommandHandler } from '../../../application/command-handler.js';
import type { Clock } from '../../../application/ports/clock.js';
import type { WebhookRequest, WebhookResponse } from '../../../application/ports/webhook-sender.js';
import { BATCH_CATEGORY, batchDecider } from '../../../domain/batch/decider.js';
import { batchWebhookDecider } from '../../../domain/batch/finished-webhook.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';

class SettableClock implements Clock {
  constructor(public at: number) {}
  now(): Date {
    return new Date(this.at);
  }
}

const RETRY_DELAYS_MS = Array.from({ length: 9 }, (_, index) => 30_000 * 2 ** index);

/** A batch of one URL, finished; its `batch.finished` sent to a receiver answering `statuses` in turn. */
async function finishedBatch(statuses: number[]) {
  const store = new InMemoryEventStore();
  const ids = new RandomIds();
  const clock = new SettableClock(Date.parse('2026-01-01T00:00:00Z'));
  const batches = new CommandHandler(store, batchDecider, BATCH_CATEGORY, ids);
  const batchId = randomUUID();
  const now = () => clock.now().toISOString();
  await batches.handle(batchId, {
    type: 'RequestBatch',
    data: {
      batchId,
      accountId: 'a',
      source: { kind: 'urls', urls: ['https://www.youtube.com/watch?v=one'] },
      maxVideos: 1,
      format: 'audio',
      language: null,
      webhookUrl: null,
      batchWebhookUrl: 'https://receiver.example/batch',
      now: now(),
    },
  });
  await batches.handle(batchId, { type: 'CancelBatch', data: { batchId, now: now() } });
  const sent: WebhookRequest[] = [];
  const deliver = new DeliverStreamWebhook({
    deliveries: new CommandHandler(store, batchWebhookDecider, BATCH_CATEGORY, ids),
    body: batchFinishedBody(batches),
    correlation: batchCorrelation,
    sender: {
      send: async (request): Promise<WebhookResponse> => {
        sent.push(request);
        return { kind: 'response', statusCode: statuses[sent.length - 1] ?? 200, durationMs: 1 };
      },
    },
    keys: { currentKey: async () => 'key' },
    clock,
    options: { timeoutMs: 15_000, retryDelaysMs: RETRY_DELAYS_MS, workerId: 'w' },
  });
  return { store, batchId, clock, deliver, sent };
}

describe('The batch.finished delivery: the schedule and the 410 rule of download.finished, over the batch’s stream', () => {
  it('sends once when acknowledged, and nothing more however often it is asked', async () => {
    const { batchId, deliver, sent } = await finishedBatch([200]);
    assert.equal(await deliver.step(batchId), null);
    assert.equal(await deliver.step(batchId), null);
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.event, 'batch.finished');
    assert.equal(JSON.parse(sent[0]?.body ?? '{}').status, 'cancelled');
  });

  it('waits the schedule’s delay after a failure, never sending early, then sends again', async () => {
    const { batchId, clock, deliver, sent } = await finishedBatch([503, 200]);
    const next = await deliver.step(batchId);
    assert.equal(next?.getTime(), clock.at + 30_000);
    clock.at += 30_000 - 1;
    assert.equal((await deliver.step(batchId))?.getTime(), next?.getTime());
    assert.equal(sent.length, 1);
    clock.at += 1;
    assert.equal(await deliver.step(batchId), null);
    assert.equal(sent.length, 2);
  });

  it('stops at a 410, and gives up after the last attempt of the schedule', async () => {
    const gone = await finishedBatch([410]);
    assert.equal(await gone.deliver.step(gone.batchId), null);
    assert.equal(gone.sent.length, 1);
    const types = (await gone.store.readStream(`batch-${gone.batchId}`)).map((event) => event.type);
    assert.ok(types.includes('WebhookDeliveryStopped'));

    const failing = await finishedBatch(Array.from({ length: 12 }, () => 500));
    for (let next = await failing.deliver.step(failing.batchId); next !== null; ) {
      failing.clock.at = next.getTime();
      next = await failing.deliver.step(failing.batchId);
    }
    assert.equal(failing.sent.length, 10, 'ten attempts, as for download.finished');
    const last = (await failing.store.readStream(`batch-${failing.batchId}`)).at(-1);
    assert.equal(last?.type, 'WebhookDeliveryGaveUp');
  });
});
