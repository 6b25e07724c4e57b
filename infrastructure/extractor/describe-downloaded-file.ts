import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ExtractionError } from '../../application/ports/extractor/extraction-error.js';
import type { DownloadedMedia } from '../../application/ports/extractor/media-downloader.js';
import { type MediaFormat, isVideoFormat } from '../../domain/media-format.js';
import { type MediaProbe, probeMediaFile } from '../media/ffprobe.js';
import { mediaMimeType } from './media-mime-type.js';
import { nameVideoHeight } from './name-video-height.js';
import type { ReportedVideo } from './reported-video.js';

interface DescribeOptions {
  ffprobePath: string;
  signal?: AbortSignal;
  /** The picture yt-dlp reported for a video format: its height is then taken from it, and the file is not probed. */
  reported?: ReportedVideo | null;
}

/**
 * Formats whose delivered file needs no probe of its own: yt-dlp extracted their audio (`-x`) after probing the
 * source with ffprobe itself, so the file is audio alone, in the format asked for.
 */
const EXTRACTED_AUDIO: ReadonlySet<MediaFormat> = new Set(['audio', 'audio-mp3']);

/**
 * What a download delivered: the format (a video's named height, or plain audio where AAC was asked for and not
 * found), its size, extension and MIME type. A video's height is what yt-dlp reported for the streams it chose and
 * merged, or, when it reported none, what ffprobe reads in the file; AAC is checked in the file.
 */
export async function describeDownloadedFile(
  filePath: string,
  requested: MediaFormat,
  options: DescribeOptions,
): Promise<Omit<DownloadedMedia, 'stageMs'>> {
  const extension = path.extname(filePath).slice(1).toLowerCase();
  if (EXTRACTED_AUDIO.has(requested))
    return {
      filePath,
      fileSize: (await stat(filePath)).size,
      actualFormat: requested,
      extension,
      mimeType: mediaMimeType(extension, false),
    };
  const reported = options.reported ?? null;
  if (isVideoFormat(requested) && reported !== null)
    return {
      filePath,
      fileSize: (await stat(filePath)).size,
      actualFormat: nameVideoHeight(reported.width, reported.height),
      extension,
      mimeType: mediaMimeType(extension, true),
    };
  const probe = await readMediaFile(filePath, options);
  const hasVideo = videoStreams(probe).length > 0;
  return {
    filePath,
    fileSize: (await stat(filePath)).size,
    actualFormat: deliveredFormat(requested, probe),
    extension,
    mimeType: mediaMimeType(extension, hasVideo),
  };
}

async function readMediaFile(filePath: string, { ffprobePath, signal }: DescribeOptions): Promise<MediaProbe> {
  try {
    return await probeMediaFile(ffprobePath, filePath, { signal });
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw new ExtractionError(
      null,
      'The downloaded file could not be read',
      error instanceof Error ? error.message : String(error),
    );
  }
}

function deliveredFormat(requested: MediaFormat, probe: MediaProbe): MediaFormat {
  if (isVideoFormat(requested)) {
    const [video] = videoStreams(probe);
    if (video === undefined)
      throw new ExtractionError('FORMAT_UNAVAILABLE', 'The platform offered no video for this format');
    return nameVideoHeight(video.width ?? 0, video.height ?? 0);
  }
  if (requested === 'audio-aac')
    return probe.streams.some((stream) => stream.type === 'audio' && stream.codec === 'aac') ? 'audio-aac' : 'audio';
  return requested;
}

/** Picture streams, not cover art (which MP4 and Matroska carry as a one-frame video stream). */
function videoStreams(probe: MediaProbe) {
  return probe.streams.filter(
    (stream) =>
      stream.type === 'video' &&
      stream.codec !== 'mjpeg' &&
      stream.codec !== 'png' &&
      stream.width !== null &&
      stream.height !== null,
  );
}
