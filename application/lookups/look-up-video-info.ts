import type { InfoJobDetails, VideoInfo } from '../../domain/lookup-job/info-job.js';
import type { VideoProber } from '../ports/extractor/video-prober.js';
import type { LookUp } from './lookup-job-steps.js';

/** An info job's work: the video's metadata, with its audio tracks (original first) when asked for. */
export function lookUpVideoInfo(extractor: VideoProber): LookUp<InfoJobDetails, VideoInfo> {
  return async ({ url, videoUrl, includeAudioTracks }, signal) => {
    const video = await extractor.probe(videoUrl ?? url, { includeAudioTracks, signal });
    const info: VideoInfo = { title: video.title, duration: video.duration, url };
    if (includeAudioTracks) info.audio = video.audioTracks ?? [];
    return info;
  };
}
