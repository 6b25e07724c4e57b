import type { AudioTrackInfo, LiveStatus, VideoMetadata } from '../../application/ports/extractor.js';

/** The parts of `yt-dlp -J` output the service reads. */
export interface YtDlpInfo {
  id?: string;
  title?: string;
  fulltitle?: string;
  duration?: number | null;
  live_status?: string | null;
  is_live?: boolean | null;
  tags?: string[] | null;
  formats?: YtDlpFormat[] | null;
  height?: number | null;
  filesize?: number | null;
  filesize_approx?: number | null;
  tbr?: number | null;
  vcodec?: string | null;
  acodec?: string | null;
}

export interface YtDlpFormat {
  format_id?: string;
  ext?: string;
  vcodec?: string | null;
  acodec?: string | null;
  height?: number | null;
  language?: string | null;
  language_preference?: number | null;
  format_note?: string | null;
  filesize?: number | null;
  filesize_approx?: number | null;
  tbr?: number | null;
}

const LIVE_STATUSES: readonly LiveStatus[] = ['not_live', 'is_live', 'is_upcoming', 'was_live', 'post_live'];

export function parseVideoMetadata(info: YtDlpInfo, includeAudioTracks: boolean): VideoMetadata {
  const liveStatus = LIVE_STATUSES.includes(info.live_status as LiveStatus) ? (info.live_status as LiveStatus) : info.is_live === true ? 'is_live' : null;
  const metadata: VideoMetadata = {
    id: String(info.id ?? ''),
    // Live titles carry an appended date; fulltitle keeps the clean one.
    title: String(info.fulltitle ?? info.title ?? ''),
    duration: typeof info.duration === 'number' && Number.isFinite(info.duration) ? Math.ceil(info.duration) : 0,
    liveStatus,
    tags: Array.isArray(info.tags) ? info.tags.map(String) : [],
  };
  if (includeAudioTracks) metadata.audioTracks = audioTracks(info.formats ?? []);
  return metadata;
}

/**
 * One track per language among audio formats. The original is marked by
 * yt-dlp with language_preference 10 (newer releases) or "original" in the
 * format note; without any marker, a single language counts as original.
 */
export function audioTracks(formats: readonly YtDlpFormat[]): AudioTrackInfo[] {
  const audio = formats.filter((format) => format.acodec !== 'none' && (format.vcodec === 'none' || format.vcodec === undefined || format.vcodec === null || format.language != null));
  const languages = new Map<string | null, boolean>();
  for (const format of audio) {
    const language = format.language ?? null;
    const original = format.language_preference === 10 || /original/i.test(format.format_note ?? '');
    languages.set(language, (languages.get(language) ?? false) || original);
  }
  if (languages.size === 0) return [];
  const anyOriginal = [...languages.values()].some(Boolean);
  const tracks = [...languages.entries()].map(([language, original]): AudioTrackInfo => ({
    type: original || (!anyOriginal && languages.size === 1) ? 'original' : 'dubbed',
    language,
  }));
  return tracks.sort((a, b) => (a.type === b.type ? 0 : a.type === 'original' ? -1 : 1));
}
