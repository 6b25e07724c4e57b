import type { RecordedEvent } from '../ports/event-store.js';

/** Work-queue subjects: each names one kind of work that follows an event. */
export const WORK_SUBJECTS = {
  download: 'work.download',
  billing: 'work.billing',
  reservation: 'work.reservation',
} as const;

export interface JobMessage {
  jobId: string;
  accountId: string;
  /** When the event that set off the work was recorded (ISO 8601). */
  occurredAt: string;
}

export interface WorkMessage {
  subject: string;
  payload: JobMessage;
}

/** The work each recorded event sets off. Everything not listed sets off none. */
export function routeEventToWork(event: RecordedEvent): WorkMessage[] {
  const { jobId, accountId } = event.data as Partial<JobMessage>;
  if (typeof jobId !== 'string' || typeof accountId !== 'string') return [];
  const payload = { jobId, accountId, occurredAt: event.createdAt.toISOString() };
  switch (event.type) {
    case 'DownloadRequested':
      return [{ subject: WORK_SUBJECTS.download, payload }];
    case 'DownloadCompleted':
    case 'DownloadFailed':
      return [{ subject: WORK_SUBJECTS.billing, payload }];
    case 'DownloadReserved':
      return [{ subject: WORK_SUBJECTS.reservation, payload }];
    default:
      return [];
  }
}
