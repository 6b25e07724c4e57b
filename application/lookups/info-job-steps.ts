import type { VideoInfo } from '../../domain/info-job/events.js';
import type { Extractor } from '../ports/extractor.js';
import type { LookupJobSteps } from './lookup-job-steps.js';
import type { InfoJobCommandHandler } from './lookup-job-commands.js';

/** An info job's work: the video's metadata, with its audio tracks (original first) when asked for. */
export function infoJobSteps(jobs: InfoJobCommandHandler, extractor: Extractor): LookupJobSteps<VideoInfo> {
  return {
    async load(jobId) {
      const { state } = await jobs.load(jobId);
      return {
        status: state.status,
        failedAttempts: state.status === 'none' || state.status === 'abandoned' ? 0 : state.failedAttempts,
        async lookUp(signal) {
          if (state.status === 'none' || state.status === 'abandoned') throw new Error(`Info job ${jobId} not found`);
          const { url, videoUrl, includeAudioTracks } = state.request;
          const video = await extractor.probe(videoUrl ?? url, { includeAudioTracks, signal });
          const info: VideoInfo = { title: video.title, duration: video.duration, url };
          if (includeAudioTracks) info.audio = video.audioTracks ?? [];
          return info;
        },
      };
    },
    async complete(jobId, result, now, context) {
      return (await jobs.handle(jobId, { type: 'CompleteInfo', data: { jobId, result, now } }, context)).state.status as 'success';
    },
    async fail(jobId, error, errorCode, now, context) {
      return (await jobs.handle(jobId, { type: 'FailInfo', data: { jobId, error, errorCode, now } }, context)).state.status as 'failed';
    },
    async recordAttemptFailure(jobId, attempt, error, errorCode, now, context) {
      await jobs.handle(jobId, { type: 'RecordInfoAttemptFailure', data: { jobId, attempt, error, errorCode, now } }, context);
    },
    async abandon(jobId, accountId, now, context) {
      return (await jobs.handle(jobId, { type: 'AbandonInfo', data: { jobId, accountId, now } }, context)).state.status;
    },
  };
}
