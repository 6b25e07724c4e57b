import type { FaultClass, InjectedFault } from './fault-injector.js';
import { FAULT_AFTERMATH_MS } from './job-invariants.js';

/** A request answered with a 5xx status. */
export interface ServerErrorAnswer {
  at: number;
  /** Method and route, ids replaced: `GET /download/{id}`. */
  route: string;
  status: number;
}

/**
 * The routes that look the platform up before they answer: the contract answers their extractor failures 500 (with
 * the extractor's context), so a platform refusing or the lookup helpers killed may fail them.
 */
const LOOKING_UP: ReadonlySet<string> = new Set(['POST /download', 'POST /list-channel', 'POST /download-batch']);

const FAILING_LOOKUPS: ReadonlySet<FaultClass> = new Set<FaultClass>(['platform-429', 'kill-warm-helpers']);

/**
 * No request answered 5xx but 503 (a passing outage of PostgreSQL or NATS, with Retry-After), except a 500 of a route
 * that looks the platform up while a fault failed its lookups (from the fault's injection to FAULT_AFTERMATH_MS
 * after its end: the platform's back-off outlasts its refusals). Reported per route and status with a count.
 */
export function checkServerErrors(answers: readonly ServerErrorAnswer[], faults: readonly InjectedFault[]): string[] {
  const counts = new Map<string, number>();
  for (const answer of answers) {
    if (answer.status === 503 || excusedByLookupFault(answer, faults)) continue;
    const key = `${answer.route} answered ${answer.status}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts].map(([what, count]) => `${what} ×${count} (a 5xx other than 503, with no fault to excuse it)`);
}

function excusedByLookupFault(answer: ServerErrorAnswer, faults: readonly InjectedFault[]): boolean {
  return (
    answer.status === 500 &&
    LOOKING_UP.has(answer.route) &&
    faults.some(
      (fault) =>
        fault.failure === null &&
        FAILING_LOOKUPS.has(fault.kind) &&
        answer.at >= fault.at &&
        answer.at <= fault.endedAt + FAULT_AFTERMATH_MS,
    )
  );
}

/** `/download/3f2c…/events` as `/download/{id}/events`: ids are UUIDs, or long runs of letters and digits. */
export function routeOf(method: string, path: string): string {
  const template = path
    .split('?')[0]
    .split('/')
    .map((segment) => (/^[0-9a-f-]{32,36}$/i.test(segment) || /^[A-Za-z0-9_-]{20,}$/.test(segment) ? '{id}' : segment))
    .join('/');
  return `${method} ${template}`;
}
