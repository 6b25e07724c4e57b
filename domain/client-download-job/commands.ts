import type { ClientDownloadFailed, ClientDownloadInfo, ClientDownloadRequested } from './events.js';

export type RequestClientDownload = { type: 'RequestClientDownload'; data: Omit<ClientDownloadRequested['data'], 'requestedAt'> & { now: string } };
export type CompleteClientDownload = { type: 'CompleteClientDownload'; data: { jobId: string; result: ClientDownloadInfo; now: string } };
export type FailClientDownload = {
  type: 'FailClientDownload';
  data: Pick<ClientDownloadFailed['data'], 'jobId' | 'error' | 'errorCode'> & { now: string };
};

export type ClientDownloadJobCommand = RequestClientDownload | CompleteClientDownload | FailClientDownload;
