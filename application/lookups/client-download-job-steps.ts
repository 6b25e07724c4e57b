import type { ClientDownloadInfo } from '../../domain/client-download-job/events.js';
import type { Extractor } from '../ports/extractor.js';
import type { LookupJobSteps } from './lookup-job-steps.js';
import type { ClientDownloadJobCommandHandler } from './lookup-job-commands.js';

/** A client-download job's work: the post's direct media links, best first, and what the platform says about it. */
export function clientDownloadJobSteps(jobs: ClientDownloadJobCommandHandler, extractor: Extractor): LookupJobSteps<ClientDownloadInfo> {
  return {
    async load(jobId) {
      const { state } = await jobs.load(jobId);
      return {
        status: state.status,
        failedAttempts: state.status === 'none' || state.status === 'abandoned' ? 0 : state.failedAttempts,
        async lookUp(signal) {
          if (state.status === 'none' || state.status === 'abandoned') throw new Error(`Client-download job ${jobId} not found`);
          // Jobs recorded before the canonical link was: at least their fragment, which yt-dlp reads as instructions, stays behind.
          const extractFrom = state.request.canonicalUrl ?? state.request.url.split('#')[0];
          const { links, ...about } = await extractor.resolveMediaLinks(extractFrom, { signal });
          return { ...about, url: state.request.url, downloadLinks: links };
        },
      };
    },
    async complete(jobId, result, now, context) {
      return (await jobs.handle(jobId, { type: 'CompleteClientDownload', data: { jobId, result, now } }, context)).state.status as 'success';
    },
    async fail(jobId, error, errorCode, now, context) {
      return (await jobs.handle(jobId, { type: 'FailClientDownload', data: { jobId, error, errorCode, now } }, context)).state.status as 'failed';
    },
    async recordAttemptFailure(jobId, attempt, error, errorCode, now, context) {
      await jobs.handle(jobId, { type: 'RecordClientDownloadAttemptFailure', data: { jobId, attempt, error, errorCode, now } }, context);
    },
    async abandon(jobId, accountId, now, context) {
      return (await jobs.handle(jobId, { type: 'AbandonClientDownload', data: { jobId, accountId, now } }, context)).state.status;
    },
  };
}
