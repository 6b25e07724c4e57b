import type { InfoAttemptFailed, InfoFailed, InfoRequested, VideoInfo } from './events.js';

export type RequestInfo = { type: 'RequestInfo'; data: Omit<InfoRequested['data'], 'requestedAt'> & { now: string } };
export type CompleteInfo = { type: 'CompleteInfo'; data: { jobId: string; result: VideoInfo; now: string } };
export type FailInfo = { type: 'FailInfo'; data: Pick<InfoFailed['data'], 'jobId' | 'error' | 'errorCode'> & { now: string } };
/** `attempt`: the number the failed attempt had (the failures its worker saw, plus one); a second report of it changes nothing. */
export type RecordInfoAttemptFailure = {
  type: 'RecordInfoAttemptFailure';
  data: Pick<InfoAttemptFailed['data'], 'jobId' | 'attempt' | 'error' | 'errorCode'> & { now: string };
};

/** Only a job that was never written can be abandoned. */
export type AbandonInfo = { type: 'AbandonInfo'; data: { jobId: string; accountId: string; now: string } };

export type InfoJobCommand = RequestInfo | CompleteInfo | FailInfo | RecordInfoAttemptFailure | AbandonInfo;
