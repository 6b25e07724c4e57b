import type { AudioTrackInfo, LiveStatus, VideoMetadata } from '../../application/ports/extractor/video-prober.js';

/** The parts of one format in `yt-dlp -J` output that the service reads. */
export interface YtDlpFormat {
  format_id?: string;
  ext?: string;
  vcodec?: string | null;
  acodec?: string | null;
  width?: number | null;
  height?: number | null;
  language?: string | null;
  language_preference?: number | null;
  format_note?: string | null;
  filesize?: number | null;
  filesize_approx?: number | null;
  /** Total bitrate, kbit/s. */
  tbr?: number | null;
}

/** The parts of a video's `yt-dlp -J` output that the service reads. A video without `formats` is itself the one format. */
export interface YtDlpInfo extends YtDlpFormat {
  id?: string;
  title?: string;
  fulltitle?: string;
  duration?: number | null;
  live_status?: string | null;
  is_live?: boolean | null;
  tags?: unknown[] | null;
  formats?: YtDlpFormat[] | null;
}

const LIVE_STATUSES: readonly string[] = [
  'not_live',
  'is_live',
  'is_upcoming',
  'was_live',
  'post_live',
] satisfies LiveStatus[];

/** Durations are floats (6.038 for a stream); a millisecond of float noise must not add a whole second. */
const ROUNDING_SLACK_SECONDS = 0.001;

export function parseVideoMetadata(info: YtDlpInfo, includeAudioTracks: boolean): VideoMetadata {
  const metadata: VideoMetadata = {
    id: String(info.id ?? ''),
    // For live streams yt-dlp appends the date to `title`; `fulltitle` keeps the platform's.
    title: String(info.fulltitle ?? info.title ?? ''),
    duration: wholeSeconds(info.duration),
    liveStatus: liveStatus(info),
    tags: Array.isArray(info.tags) ? info.tags.filter((tag): tag is string => typeof tag === 'string') : [],
  };
  if (includeAudioTracks) metadata.audioTracks = audioTracks(info.formats ?? [info]);
  return metadata;
}

function wholeSeconds(duration: number | null | undefined): number {
  if (typeof duration !== 'number' || !Number.isFinite(duration) || duration <= 0) return 0;
  return Math.max(1, Math.ceil(duration - ROUNDING_SLACK_SECONDS));
}

function liveStatus(info: YtDlpInfo): LiveStatus | null {
  if (typeof info.live_status === 'string' && LIVE_STATUSES.includes(info.live_status))
    return info.live_status as LiveStatus;
  return info.is_live === true ? 'is_live' : null;
}

/**
 * One track per language. yt-dlp marks no track as default or original in a
 * dedicated field: the original is the language of a format whose note says
 * "original" (the platform's track name, or yt-dlp's "(original)" suffix);
 * failing that, the language yt-dlp ranks first (`language_preference`, which
 * is 10 for the original in current releases and for the default track in
 * older ones); failing that, the only language. Audio-description tracks are
 * neither original nor a dub and are left out. The original comes first.
 */
export function audioTracks(formats: readonly YtDlpFormat[]): AudioTrackInfo[] {
  const audioOnly = formats.filter((format) => format.vcodec === 'none' && format.acodec !== 'none');
  const withAudio = audioOnly.length > 0 ? audioOnly : formats.filter((format) => format.acodec !== 'none');
  const languages = new Map<string | null, { original: boolean; preference: number }>();
  for (const format of withAudio) {
    if (isDescriptive(format)) continue;
    const language = format.language ?? null;
    const seen = languages.get(language) ?? { original: false, preference: Number.NEGATIVE_INFINITY };
    languages.set(language, {
      original: seen.original || /\boriginal\b/i.test(format.format_note ?? ''),
      preference: Math.max(seen.preference, format.language_preference ?? Number.NEGATIVE_INFINITY),
    });
  }
  if (languages.size === 0) return [];
  let originals = [...languages].filter(([, track]) => track.original).map(([language]) => language);
  if (originals.length === 0) {
    const ranked = [...languages].sort(([, a], [, b]) => b.preference - a.preference);
    const [first, second] = ranked;
    if (second === undefined || first[1].preference > second[1].preference) originals = [first[0]];
  }
  const tracks = [...languages.keys()].map(
    (language): AudioTrackInfo => ({ type: originals.includes(language) ? 'original' : 'dubbed', language }),
  );
  return [...tracks.filter((track) => track.type === 'original'), ...tracks.filter((track) => track.type === 'dubbed')];
}

function isDescriptive(format: YtDlpFormat): boolean {
  return /\bdescriptive\b/i.test(format.format_note ?? '') || /-desc$/i.test(format.language ?? '');
}
