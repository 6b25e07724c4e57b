import type { ClientDownloadAttemptFailed, ClientDownloadFailed, ClientDownloadInfo, ClientDownloadRequested } from './events.js';

export type RequestClientDownload = { type: 'RequestClientDownload'; data: Omit<ClientDownloadRequested['data'], 'requestedAt'> & { now: string } };
export type CompleteClientDownload = { type: 'CompleteClientDownload'; data: { jobId: string; result: ClientDownloadInfo; now: string } };
export type FailClientDownload = {
  type: 'FailClientDownload';
  data: Pick<ClientDownloadFailed['data'], 'jobId' | 'error' | 'errorCode'> & { now: string };
};
/** `attempt`: the number the failed attempt had (the failures its worker saw, plus one); a second report of it changes nothing. */
export type RecordClientDownloadAttemptFailure = {
  type: 'RecordClientDownloadAttemptFailure';
  data: Pick<ClientDownloadAttemptFailed['data'], 'jobId' | 'attempt' | 'error' | 'errorCode'> & { now: string };
};

/** Only a job that was never written can be abandoned. */
export type AbandonClientDownload = { type: 'AbandonClientDownload'; data: { jobId: string; accountId: string; now: string } };

export type ClientDownloadJobCommand =
  | RequestClientDownload
  | CompleteClientDownload
  | FailClientDownload
  | RecordClientDownloadAttemptFailure
  | AbandonClientDownload;
