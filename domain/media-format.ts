export const MEDIA_FORMATS = ['1080', '720', '480', '360', 'audio', 'audio-aac', 'audio-mp3'] as const;
export type MediaFormat = (typeof MEDIA_FORMATS)[number];

export const VIDEO_HEIGHTS = ['1080', '720', '480', '360'] as const;
export type VideoFormat = (typeof VIDEO_HEIGHTS)[number];

export function isVideoFormat(format: MediaFormat): format is VideoFormat {
  return (VIDEO_HEIGHTS as readonly string[]).includes(format);
}
