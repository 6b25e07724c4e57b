import { runProcess } from '../extractor/run-process.js';

export interface MediaStream {
  type: 'video' | 'audio' | 'other';
  codec: string | null;
  width: number | null;
  height: number | null;
  sampleRate: number | null;
  channels: number | null;
  bitRate: number | null;
}

export interface MediaProbe {
  formatName: string;
  duration: number | null;
  bitRate: number | null;
  streams: MediaStream[];
}

const numberOrNull = (value: unknown): number | null => (value === undefined || value === null || Number.isNaN(Number(value)) ? null : Number(value));

/** What a media file holds, as ffprobe reads it. */
export async function probeMediaFile(ffprobePath: string, file: string): Promise<MediaProbe> {
  const result = await runProcess(ffprobePath, ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '--', file]);
  if (result.code !== 0) throw new Error(`ffprobe failed: ${result.stderr.trim()}`);
  const parsed = JSON.parse(result.stdout) as { format?: Record<string, unknown>; streams?: Array<Record<string, unknown>> };
  return {
    formatName: String(parsed.format?.format_name ?? ''),
    duration: numberOrNull(parsed.format?.duration),
    bitRate: numberOrNull(parsed.format?.bit_rate),
    streams: (parsed.streams ?? []).map((stream) => ({
      type: stream.codec_type === 'video' ? 'video' : stream.codec_type === 'audio' ? 'audio' : 'other',
      codec: stream.codec_name === undefined ? null : String(stream.codec_name),
      width: numberOrNull(stream.width),
      height: numberOrNull(stream.height),
      sampleRate: numberOrNull(stream.sample_rate),
      channels: numberOrNull(stream.channels),
      bitRate: numberOrNull(stream.bit_rate),
    })),
  };
}
