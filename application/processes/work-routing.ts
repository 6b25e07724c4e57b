import type { RecordedEvent } from '../ports/event-store.js';

/**
 * The work each event type sets off; events of any other type set off none. A new kind of work is a line here and
 * a feature that consumes it: a kind no feature consumes does not compile.
 */
const WORK_OF_EVENT = {
  DownloadRequested: ['download'],
  // The terminal event does not say whether the job has a webhookUrl; the webhook worker reads the stream and acks at once when not.
  DownloadCompleted: ['billing', 'webhook'],
  DownloadFailed: ['billing', 'webhook'],
  DownloadReserved: ['reservation'],
  InfoRequested: ['info'],
  ClientDownloadRequested: ['client-download'],
  LookupReserved: ['lookup-reservation'],
} as const;
type RoutedEventType = keyof typeof WORK_OF_EVENT;

/** The kinds of work that follow events; the queue adapter turns each into a subject of its own. */
export type WorkKind = (typeof WORK_OF_EVENT)[RoutedEventType][number];
export const WORK_KINDS: readonly WorkKind[] = [...new Set(Object.values(WORK_OF_EVENT).flat())];

export interface JobMessage {
  jobId: string;
  accountId: string;
  /** When the event that set off the work was recorded (ISO 8601). */
  occurredAt: string;
  /** The id of the event that set off the work: the causation of the commands it leads to. */
  eventId?: string;
  /** That event's correlation id, carried on. */
  correlationId?: string;
}

export interface WorkMessage {
  kind: WorkKind;
  payload: JobMessage;
}

/** The only event types that set off work, so the relay need not read the others. */
export const ROUTED_EVENT_TYPES = Object.keys(WORK_OF_EVENT).filter(isRouted);

function isRouted(type: string): type is RoutedEventType {
  return Object.hasOwn(WORK_OF_EVENT, type);
}

/** The work a recorded event sets off, with the job it is for. */
export function routeEventToWork(event: RecordedEvent): WorkMessage[] {
  if (!isRouted(event.type)) return [];
  const data = event.data as Partial<JobMessage> & { lookupId?: unknown };
  // A lookup's reservation names its job (or listing) as lookupId.
  const jobId = data.jobId ?? data.lookupId;
  const { accountId } = data;
  if (typeof jobId !== 'string' || typeof accountId !== 'string') return [];
  const { correlationId } = event.metadata;
  const payload: JobMessage = {
    jobId,
    accountId,
    occurredAt: event.createdAt.toISOString(),
    eventId: event.id,
    ...(typeof correlationId === 'string' ? { correlationId } : {}),
  };
  return WORK_OF_EVENT[event.type].map((kind) => ({ kind, payload }));
}
