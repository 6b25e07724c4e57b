import type { FaultClass, InjectedFault } from './fault-injector.js';
import { FAULT_AFTERMATH_MS } from './job-invariants.js';

/** A request answered with a 5xx status. */
export interface ServerErrorAnswer {
  /** When the request was sent. */
  at: number;
  answeredAt: number;
  /** Method and route, ids replaced: `GET /download/{id}`. */
  route: string;
  status: number;
  /** The answer's `error` text (or the start of its body), which names the cause to whoever reads a broken run. */
  error: string;
}

/**
 * The routes that look the platform up before they answer: the contract answers their extractor failures 500 (with
 * the extractor's context), so a platform refusing or the lookup helpers killed may fail them.
 */
const LOOKING_UP: ReadonlySet<string> = new Set(['POST /download', 'POST /list-channel', 'POST /download-batch']);

const FAILING_LOOKUPS: ReadonlySet<FaultClass> = new Set<FaultClass>(['platform-429', 'kill-warm-helpers']);

/**
 * No request answered 5xx but 503 (a passing outage of PostgreSQL or NATS, with Retry-After), except a 500 of a route
 * that looks the platform up and was under way while a fault failed its lookups (from the fault's injection to
 * FAULT_AFTERMATH_MS after its end: the platform's back-off outlasts its refusals). A request sent just before the
 * fault reaches the platform during it, after its reservation and the extractor's start. Reported per route and
 * status with a count, and the first answer's time and text, to set beside the faults' times and the processes' logs.
 */
export function checkServerErrors(answers: readonly ServerErrorAnswer[], faults: readonly InjectedFault[]): string[] {
  const byRoute = new Map<string, ServerErrorAnswer[]>();
  for (const answer of answers) {
    if (answer.status === 503 || excusedByLookupFault(answer, faults)) continue;
    const key = `${answer.route} answered ${answer.status}`;
    byRoute.set(key, [...(byRoute.get(key) ?? []), answer]);
  }
  return [...byRoute].map(([what, [first, ...rest]]) => {
    const firstSeen = `first at ${new Date(first.at).toISOString()}: "${first.error}"`;
    return `${what} ×${rest.length + 1} (a 5xx other than 503, with no fault to excuse it); ${firstSeen}`;
  });
}

function excusedByLookupFault(answer: ServerErrorAnswer, faults: readonly InjectedFault[]): boolean {
  return (
    answer.status === 500 &&
    LOOKING_UP.has(answer.route) &&
    faults.some(
      (fault) =>
        fault.failure === null &&
        FAILING_LOOKUPS.has(fault.kind) &&
        answer.answeredAt >= fault.at &&
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
