import type { InfoFailed, InfoRequested, VideoInfo } from './events.js';

export type RequestInfo = { type: 'RequestInfo'; data: Omit<InfoRequested['data'], 'requestedAt'> & { now: string } };
export type CompleteInfo = { type: 'CompleteInfo'; data: { jobId: string; result: VideoInfo; now: string } };
export type FailInfo = { type: 'FailInfo'; data: Pick<InfoFailed['data'], 'jobId' | 'error' | 'errorCode'> & { now: string } };

export type InfoJobCommand = RequestInfo | CompleteInfo | FailInfo;
