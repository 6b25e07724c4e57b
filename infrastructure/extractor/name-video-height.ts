import { VIDEO_HEIGHTS, type VideoFormat } from '../../domain/media-format.js';

/**
 * The quality name a picture of this size goes by: the smallest named height
 * whose 16:9 frame holds it, either way up. A 1920x800 film is "1080" like a
 * 1920x1080 one, and a 1080x1920 portrait video is "1080" too. Smaller than
 * the smallest name is still the smallest; larger than the largest is the
 * largest.
 */
export function nameVideoHeight(width: number, height: number): VideoFormat {
  const short = Math.min(width, height);
  const long = Math.max(width, height);
  const ascending = [...VIDEO_HEIGHTS].sort((a, b) => Number(a) - Number(b));
  return (
    ascending.find((name) => short <= Number(name) && long <= Math.ceil((Number(name) * 16) / 9)) ??
    ascending[ascending.length - 1]
  );
}
