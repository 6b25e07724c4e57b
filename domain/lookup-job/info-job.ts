import { lookupJobDecider } from './decider.js';
import type { LookupJobEvent } from './events.js';
import type { LookupJobKind } from './kind.js';
import { lookupJobEventTypes } from './names.js';

export interface AudioTrack {
  type: 'original' | 'dubbed';
  /** ISO language code, or null when the platform gives none. */
  language: string | null;
}

/** What a successful info job answers. */
export interface VideoInfo {
  title: string;
  /** Whole seconds. */
  duration: number;
  /** The URL as submitted. */
  url: string;
  /** Only when asked for; the original track first. */
  audio?: AudioTrack[];
}

export interface InfoJobDetails {
  /** The video's canonical URL, which the extractor is given; absent from jobs recorded before it was, whose `url` was the canonical one. */
  videoUrl?: string;
  includeAudioTracks: boolean;
}

/** Info jobs: a video's title and duration, and its audio tracks when asked for. */
export const INFO_JOB: LookupJobKind<'Info', VideoInfo> = { name: 'Info', category: 'info' };
export const INFO_JOB_CATEGORY = INFO_JOB.category;

export type InfoJobEvent = LookupJobEvent<'Info', InfoJobDetails, VideoInfo>;

export const infoJobDecider = lookupJobDecider<'Info', InfoJobDetails, VideoInfo>(INFO_JOB);
export const INFO_JOB_EVENT_TYPES: readonly InfoJobEvent['type'][] = Object.values(lookupJobEventTypes(INFO_JOB.name));
