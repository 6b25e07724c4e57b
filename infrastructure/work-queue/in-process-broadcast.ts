import { EventEmitter } from 'node:events';
import type { Broadcast } from '../../application/ports/work-queue.js';

/** The embedded mode is one process, so a broadcast reaches its own subscribers only. */
export function inProcessBroadcast(emitter: EventEmitter, channel: string): Broadcast {
  return {
    async publish(message) {
      emitter.emit(channel, message);
    },
    subscribe(onMessage) {
      emitter.on(channel, onMessage);
      return {
        async stop() {
          emitter.off(channel, onMessage);
        },
      };
    },
  };
}
