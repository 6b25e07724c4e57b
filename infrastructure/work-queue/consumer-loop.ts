import type { Logger } from '../../application/ports/logger.js';
import type { WorkConsumer, WorkConsumerOptions, WorkItem } from '../../application/ports/work-queue.js';
import { settlesWithin } from '../system/settles-within.js';
import { sleep } from '../system/sleep.js';
import { type ConsumerSettings, consumerSettings } from './consumer-settings.js';
import type { Delivery, DeliverySource, Settlement } from './delivery.js';
import { ProgressWatch } from './progress-watch.js';
import { runWorkHandler } from './run-work-handler.js';

export interface ConsumerLoopOptions extends WorkConsumerOptions {
  logger: Logger;
  /** The queue adapter's side: taking, extending and settling deliveries. */
  source: DeliverySource;
}

interface InFlight {
  delivery: Delivery;
  abort: AbortController;
  watch: ProgressWatch;
  settled: boolean;
}

/**
 * The consumer of one subject, whatever the queue: it takes one delivery at a time, and only while one of its
 * `concurrency` handler slots is free, so an idle consumer keeps one take waiting whatever its concurrency and no
 * message waits in a local buffer while its ack wait runs out. Each delivery is watched for progress (see
 * ProgressWatch) and settled once with the handler's result.
 */
export class ConsumerLoop implements WorkConsumer {
  private readonly settings: ConsumerSettings;
  private readonly inFlight = new Set<InFlight>();
  private stopController: AbortController | null = null;
  private running: Promise<void> = Promise.resolve();
  private takesFailing = false;

  constructor(private readonly options: ConsumerLoopOptions) {
    this.settings = consumerSettings(options);
  }

  get taking(): boolean {
    return !this.takesFailing;
  }

  async start(): Promise<void> {
    if (this.stopController !== null) return;
    const stop = new AbortController();
    this.stopController = stop;
    this.running = this.takeWhileRunning(stop.signal);
  }

  /**
   * Stops taking and waits for the handlers under way. Those still running after the drain timeout have their signal
   * aborted and their message handed back at once for another instance, rather than after the ack wait.
   */
  async stop(): Promise<void> {
    const stop = this.stopController;
    if (stop === null) return;
    stop.abort();
    if (!(await settlesWithin(this.running, this.settings.drainTimeoutMs))) await this.handBackInFlight();
    this.stopController = null;
    this.running = Promise.resolve();
  }

  private async takeWhileRunning(stop: AbortSignal): Promise<void> {
    const handling = new Set<Promise<void>>();
    let failures = 0;
    while (!stop.aborted) {
      if (handling.size >= this.settings.concurrency) {
        await Promise.race(handling);
        continue;
      }
      let delivery: Delivery | null;
      try {
        delivery = await this.options.source.take(stop);
        failures = 0;
        this.takesFailing = false;
        if (delivery === null) {
          await this.options.source.waitIdle?.(stop);
          continue;
        }
      } catch (error) {
        failures += 1;
        await this.pauseAfterFailure(error, failures, stop);
        continue;
      }
      if (stop.aborted) {
        // Taken while stopping: let another instance have it now.
        await settleOrLog(delivery, 'handback');
        continue;
      }
      const handled: Promise<void> = this.handle(delivery)
        .catch((error: unknown) =>
          this.options.logger.error({ subject: this.options.subject, err: error }, 'Handling work failed'),
        )
        .finally(() => handling.delete(handled));
      handling.add(handled);
    }
    await Promise.all(handling);
  }

  private async pauseAfterFailure(error: unknown, failures: number, stop: AbortSignal): Promise<void> {
    this.takesFailing = true;
    this.options.logger.warn({ subject: this.options.subject, failures, err: error }, 'Taking work failed; retrying');
    await sleep(Math.min(30_000, 500 * 2 ** (failures - 1)), stop);
    // Best effort: should it fail, the next take fails too, and says why.
    if (!stop.aborted) await this.options.source.recover?.().catch(() => undefined);
  }

  private async handle(delivery: Delivery): Promise<void> {
    const { handler, errorRetry } = this.options;
    const { ackWaitMs, heartbeatMs, maxDeliver } = this.settings;
    const entry: InFlight = {
      delivery,
      abort: new AbortController(),
      settled: false,
      watch: new ProgressWatch({
        ackWaitMs,
        heartbeatMs,
        extend: () => delivery.extend(),
        lapse: () => lapse(entry, ackWaitMs),
        log: delivery.log,
      }),
    };
    this.inFlight.add(entry);
    try {
      const item: WorkItem = {
        ...delivery.message,
        isLastAttempt: maxDeliver > 0 && delivery.message.deliveryCount >= maxDeliver,
        heartbeat: () => entry.watch.progress(),
        signal: entry.abort.signal,
      };
      await settle(entry, await runWorkHandler(handler, item, errorRetry, delivery.log));
    } finally {
      entry.watch.end();
      this.inFlight.delete(entry);
    }
  }

  private async handBackInFlight(): Promise<void> {
    for (const entry of this.inFlight) {
      entry.delivery.log.warn({}, 'Handler still running at shutdown; handing its message back');
      entry.abort.abort();
      await settle(entry, 'handback');
    }
  }
}

/** Its message is out again, so the handler must stop; the queue adapter decides what its late answer may still do. */
function lapse(entry: InFlight, ackWaitMs: number): void {
  if (entry.settled || entry.abort.signal.aborted) return;
  entry.delivery.log.error(
    { ackWaitMs },
    'No progress confirmed for a whole ack wait: the message goes to another worker, so this handler stops',
  );
  entry.delivery.lapse?.();
  entry.abort.abort(new Error('The delivery lapsed: no progress was confirmed within the ack wait'));
}

/** Once per delivery, whichever comes first: the handler's result, or the hand-back of a consumer that stops. */
async function settle(entry: InFlight, settlement: Settlement): Promise<void> {
  if (entry.settled) return;
  entry.settled = true;
  entry.watch.end();
  await settleOrLog(entry.delivery, settlement);
}

async function settleOrLog(delivery: Delivery, settlement: Settlement): Promise<void> {
  try {
    await delivery.settle(settlement);
  } catch (error) {
    const outcome = typeof settlement === 'string' ? settlement : 'retry';
    delivery.log.warn(
      { outcome, err: error },
      'Could not settle the message; it will be delivered again after the ack wait',
    );
  }
}
