import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface MediaStream {
  type: 'video' | 'audio' | 'other';
  codec: string | null;
  width: number | null;
  height: number | null;
  /** Bits per second, where the container records it (Matroska/WebM streams often do not). */
  bitRate: number | null;
  sampleRate: number | null;
  channels: number | null;
}

export interface MediaProbe {
  /** ffprobe's format name, e.g. `mov,mp4,m4a,3gp,3g2,mj2`, `matroska,webm`, `mp3`. */
  container: string;
  /** Seconds. */
  duration: number | null;
  /** Bits per second over the whole file. */
  bitRate: number | null;
  streams: MediaStream[];
}

export interface ProbeMediaOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

interface FfprobeOutput {
  format?: { format_name?: string; duration?: string; bit_rate?: string };
  streams?: Array<{
    codec_type?: string;
    codec_name?: string;
    width?: number;
    height?: number;
    bit_rate?: string;
    sample_rate?: string;
    channels?: number;
  }>;
}

/** What a media file holds, as ffprobe reads it. The `file:` protocol keeps a name with a colon or a leading dash from being read as anything else. */
export async function probeMediaFile(
  ffprobePath: string,
  file: string,
  options: ProbeMediaOptions = {},
): Promise<MediaProbe> {
  const { stdout } = await run(
    ffprobePath,
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '-i', `file:${file}`],
    {
      signal: options.signal,
      timeout: options.timeoutMs ?? 60_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const parsed = JSON.parse(stdout) as FfprobeOutput;
  return {
    container: parsed.format?.format_name ?? '',
    duration: numberOrNull(parsed.format?.duration),
    bitRate: numberOrNull(parsed.format?.bit_rate),
    streams: (parsed.streams ?? []).map((stream) => ({
      type: stream.codec_type === 'video' ? 'video' : stream.codec_type === 'audio' ? 'audio' : 'other',
      codec: stream.codec_name ?? null,
      width: numberOrNull(stream.width),
      height: numberOrNull(stream.height),
      bitRate: numberOrNull(stream.bit_rate),
      sampleRate: numberOrNull(stream.sample_rate),
      channels: numberOrNull(stream.channels),
    })),
  };
}

function numberOrNull(value: string | number | undefined): number | null {
  if (value === undefined || value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) ? number : null;
}
