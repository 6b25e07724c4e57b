import type { RecordedEvent } from '../ports/event-store.js';

/** The kinds of work that follow events; the queue adapter turns each into a subject of its own. */
export const WORK_KINDS = ['download', 'billing', 'reservation', 'webhook', 'info', 'client-download', 'lookup-reservation'] as const;
export type WorkKind = (typeof WORK_KINDS)[number];

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
export const ROUTED_EVENT_TYPES = [
  'DownloadRequested',
  'DownloadCompleted',
  'DownloadFailed',
  'DownloadReserved',
  'InfoRequested',
  'ClientDownloadRequested',
  'LookupReserved',
] as const;

/** The work each recorded event sets off. Everything not listed sets off none. */
export function routeEventToWork(event: RecordedEvent): WorkMessage[] {
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
  switch (event.type) {
    case 'DownloadRequested':
      return [{ kind: 'download', payload }];
    case 'DownloadCompleted':
    case 'DownloadFailed':
      // The terminal event does not say whether the job has a webhookUrl; the webhook worker reads the stream and acks at once when not.
      return [{ kind: 'billing', payload }, { kind: 'webhook', payload }];
    case 'DownloadReserved':
      return [{ kind: 'reservation', payload }];
    case 'InfoRequested':
      return [{ kind: 'info', payload }];
    case 'ClientDownloadRequested':
      return [{ kind: 'client-download', payload }];
    case 'LookupReserved':
      return [{ kind: 'lookup-reservation', payload }];
    default:
      return [];
  }
}
