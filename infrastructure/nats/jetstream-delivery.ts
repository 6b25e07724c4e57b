import { randomBytes } from 'node:crypto';
import type { JsMsg } from 'nats';
import type { Logger } from '../../application/ports/logger.js';
import type { Delivery, Settlement } from '../work-queue/delivery.js';

/**
 * One delivery of a JetStream message, or null for a message that is not JSON, which is terminated. `confirm` resolves
 * once the server has answered after an extension was sent (a NATS flush); without it, extensions count as confirmed.
 */
export function jetStreamDelivery(message: JsMsg, logger: Logger, confirm?: () => Promise<void>): Delivery | null {
  const { deliveryCount } = message.info;
  const log = logger.child({ subject: message.subject, seq: message.seq, deliveryCount });
  let data: unknown;
  try {
    data = message.json();
  } catch (error) {
    log.error({ err: error }, 'Work message is not JSON; dropping it');
    terminate(message, log);
    return null;
  }
  let lapsed = false;
  return {
    message: {
      subject: message.subject,
      data,
      deliveryCount,
      messageId: String(message.seq),
      // The server may report the same delivery count twice (after a lapse, or a closed connection), so a nonce keeps deliveries apart.
      deliveryId: `${message.seq}:${deliveryCount}:${randomBytes(4).toString('hex')}`,
    },
    log,
    async extend() {
      message.working();
      await confirm?.();
    },
    lapse() {
      lapsed = true;
    },
    async settle(settlement) {
      // A lapsed delivery's message is already out again, and that delivery settles it: this one's ack could end a
      // redelivery still at work (nothing would follow if its worker died), and a retry would send the message twice.
      // Should the lapse have been a false alarm, the message comes back after the ack wait and finds its work done.
      if (!lapsed) await settleMessage(message, settlement);
    },
  };
}

async function settleMessage(message: JsMsg, settlement: Settlement): Promise<void> {
  if (settlement === 'ack') {
    // Confirmed, so a lost ack is at least logged.
    await message.ackAck();
  } else if (settlement === 'terminate') {
    message.term();
  } else if (settlement === 'handback') {
    message.nak();
  } else {
    message.nak(Math.max(0, Math.round(settlement.retryAfterMs)));
  }
}

function terminate(message: JsMsg, log: Logger): void {
  try {
    message.term();
  } catch (error) {
    log.warn({ err: error }, 'Could not terminate the message; it will be delivered again after the ack wait');
  }
}
