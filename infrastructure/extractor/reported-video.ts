/** The delivered video's picture as yt-dlp reports it after the move (`--print after_move:…`). */
export interface ReportedVideo {
  width: number;
  height: number;
  vcodec: string;
}

/**
 * `1280 720 avc1.64001f` into its parts; null when yt-dlp did not know them (`NA`) or the picture is none (audio
 * only), so the file is probed instead.
 */
export function parseReportedVideo(text: string): ReportedVideo | null {
  const [width, height, vcodec] = text.trim().split(/\s+/);
  const size = (value: string | undefined) =>
    value !== undefined && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : null;
  const w = size(width);
  const h = size(height);
  if (w === null || h === null || vcodec === undefined || vcodec === 'none' || vcodec === 'NA') return null;
  return { width: w, height: h, vcodec };
}
