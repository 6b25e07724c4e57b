import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { percentile, timedProcess } from './timed-process.js';

/** The points of a yt-dlp run its `--exec` hooks mark, in order (see yt-dlp's `--use-postprocessor` WHEN values). */
const POINTS = ['pre_process', 'before_dl', 'after_move'] as const;

export interface HandRunSplit {
  /** Python's start-up, yt_dlp's import and the page's extraction: start to pre_process. */
  extraction: number;
  /** Choosing the formats and preparing the download: pre_process to before_dl. */
  selection: number;
  /** The transfer: before_dl to yt-dlp's progress line saying it finished. */
  download: number;
  /** A merge of separate streams, the audio extraction or the mp3 encoding: from then to after_move. */
  postProcessing: number;
  /** Cleaning up and exiting: after_move to the process's end. */
  exit: number;
}

/**
 * Where a hand-run yt-dlp command's time goes, from `--exec` hooks that print the time at each point. The hooks cost a
 * few milliseconds each (a `date` process), so these runs are kept apart from the baseline's timed ones.
 */
export async function handRunSplit(
  ytDlpPath: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  scratch: string,
): Promise<HandRunSplit> {
  // A script of its own, which ignores the file path yt-dlp appends to a hook's command.
  const mark = path.join(scratch, 'mark-split.sh');
  await writeFile(mark, '#!/bin/sh\necho "split $1 $(date +%s%N)"\n', { mode: 0o755 });
  const hooks = POINTS.flatMap((point) => ['--exec', `${point}:${mark} ${point}`]);
  const started = Date.now();
  // yt-dlp flushes each progress line, so its arrival dates the end of the transfer (post-processors run before hooks).
  let transferredAt: number | null = null;
  const { stdout } = await timedProcess(ytDlpPath, [...hooks, ...args], env, (chunk, at) => {
    if (transferredAt === null && chunk.includes('"status": "finished"')) transferredAt = at;
  });
  const ended = Date.now();
  const at = new Map<string, number>();
  for (const match of stdout.matchAll(/^split (\w+) (\d+)$/gm)) at.set(match[1] as string, Number(match[2]) / 1e6);
  const time = (point: (typeof POINTS)[number]) => {
    const value = at.get(point);
    if (value === undefined) throw new Error(`yt-dlp printed no ${point} mark: ${stdout.slice(-500)}`);
    return value;
  };
  if (transferredAt === null) throw new Error(`yt-dlp printed no finished progress line: ${stdout.slice(-500)}`);
  const transferred: number = transferredAt;
  return {
    extraction: time('pre_process') - started,
    selection: time('before_dl') - time('pre_process'),
    download: transferred - time('before_dl'),
    postProcessing: time('after_move') - transferred,
    exit: ended - time('after_move'),
  };
}

/** `extraction 420, selection 5, download 300, post-processing 250, exit 40` (medians, ms). */
export function describeHandRunSplits(splits: readonly HandRunSplit[]): string {
  const median = (pick: (split: HandRunSplit) => number) => percentile(splits.map(pick), 0.5).toFixed(0);
  return (
    `extraction ${median((s) => s.extraction)} ms, selection ${median((s) => s.selection)} ms, ` +
    `download ${median((s) => s.download)} ms, post-processing ${median((s) => s.postProcessing)} ms, exit ${median((s) => s.exit)} ms`
  );
}
