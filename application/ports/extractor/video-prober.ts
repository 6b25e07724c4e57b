export type LiveStatus = 'not_live' | 'is_live' | 'is_upcoming' | 'was_live' | 'post_live';

export interface AudioTrackInfo {
  type: 'original' | 'dubbed';
  /** ISO language code as the platform reports it, or null when unknown. */
  language: string | null;
}

export interface VideoMetadata {
  /** The platform's id of the video. */
  id: string;
  title: string;
  /** Whole seconds, rounded up so that [0, duration) covers the whole video. */
  duration: number;
  liveStatus: LiveStatus | null;
  tags: string[];
  /** Present only when asked for with includeAudioTracks. */
  audioTracks?: AudioTrackInfo[];
}

export interface ProbeOptions {
  includeAudioTracks?: boolean;
  signal?: AbortSignal;
}

/** The extractor's capability to describe one video: what submissions and info jobs ask of it. */
export interface VideoProber {
  probe(url: string, options?: ProbeOptions): Promise<VideoMetadata>;
}
