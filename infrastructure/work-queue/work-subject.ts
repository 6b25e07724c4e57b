import type { WorkKind } from '../../application/processes/work-routing.js';
import type { Config } from '../config/config.js';

/** Subjects live under the stream's name, so several deployments (or test runs) share one NATS server without overlapping. */
export function workSubject(config: Config, kind: WorkKind): string {
  return `${config.queue.natsStreamName}.${kind}`;
}
