const AUDIO: Record<string, string> = {
  m4a: 'audio/mp4',
  mp4: 'audio/mp4',
  mp3: 'audio/mpeg',
  webm: 'audio/webm',
  opus: 'audio/ogg',
  ogg: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  mka: 'audio/x-matroska',
};

const VIDEO: Record<string, string> = {
  mp4: 'video/mp4',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  mov: 'video/quicktime',
};

/** The Content-Type for a delivered file: the extension decides, and whether it holds video (WebM and MP4 can go either way). */
export function mediaMimeType(extension: string, hasVideo: boolean): string {
  const key = extension.toLowerCase();
  return (hasVideo ? VIDEO[key] : AUDIO[key]) ?? VIDEO[key] ?? AUDIO[key] ?? 'application/octet-stream';
}
