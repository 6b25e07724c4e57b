import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { watchProcessGroup } from './process-group-watchdog.js';

export interface ProcessResult {
  /** Exit code, or null when the process died of a signal. */
  code: number | null;
  /** Collected stdout; empty when lines were handed to `onStdoutLine` instead. */
  stdout: string;
  /** The last `maxStderrChars` of stderr: error lines come last. */
  stderr: string;
  timedOut: boolean;
}

export interface RunProcessOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Receives stdout line by line; stdout is then not collected. */
  onStdoutLine?: (line: string) => void;
  /** Collected stdout beyond this fails the run (a `-J` of one video is a few MB at most). */
  maxStdoutChars?: number;
  maxStderrChars?: number;
}

export class OutputTooLargeError extends Error {
  constructor(limit: number) {
    super(`The process wrote more than ${limit} characters to stdout`);
    this.name = 'OutputTooLargeError';
  }
}

/**
 * Runs a program with an argument vector, never through a shell. The child
 * leads its own process group, so a timeout or an abort kills it together
 * with whatever it started (yt-dlp runs ffmpeg), and a watchdog kills the
 * group if this process dies first. Aborting rejects with the signal's reason.
 */
export function runProcess(
  command: string,
  args: readonly string[],
  options: RunProcessOptions = {},
): Promise<ProcessResult> {
  return superviseProcess(() => spawnProcessGroup(command, args, options), options);
}

/** The child of runProcess: its own process group, watched. */
export function spawnProcessGroup(
  command: string,
  args: readonly string[],
  options: Pick<RunProcessOptions, 'cwd' | 'env'>,
): StartedProcess {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const watchdog = child.pid === undefined ? null : watchProcessGroup(child.pid);
  let ended = false;
  return {
    child,
    killGroup() {
      // Not whether the leader has exited: yt-dlp gone, its ffmpeg runs on in the group and holds the output open.
      if (child.pid === undefined || ended) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // The group is already gone.
      }
    },
    release() {
      ended = true;
      watchdog?.release();
    },
  };
}

/** What supervising a run needs of its process: its output and its end ('close' once it has exited and its output ended; the code is null when a signal killed it). */
export interface SupervisedChild {
  readonly stdout: Readable;
  readonly stderr: Readable;
  once(event: 'error', listener: (error: Error) => void): unknown;
  once(event: 'close', listener: (code: number | null) => void): unknown;
}

/** A run leading its own process group, guarded so that the group dies if this process dies first. */
export interface StartedProcess {
  child: SupervisedChild;
  /** Kills the run with whatever it started, unless it has ended (closed: its leader and everything holding its output gone). */
  killGroup(): void;
  /** Called once the run has ended: the guard is no longer needed. */
  release(): void;
}

/**
 * runProcess for a child that `start` provides (spawned now, or started
 * earlier and handed its arguments now): output, timeout, abort and the
 * group's end are handled the same. `start` is not called once aborted.
 */
export function superviseProcess(start: () => StartedProcess, options: RunProcessOptions = {}): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted === true) {
      reject(options.signal.reason);
      return;
    }
    const { child, killGroup, release } = start();
    const stops = watchStops(options, killGroup);
    const output = collectOutput(child, options, (error) => stops.fail(error));
    const finish = () => {
      release();
      stops.release();
    };
    child.once('error', (error) => {
      finish();
      reject(error);
    });
    child.once('close', (code) => {
      finish();
      output.flush();
      if (stops.failure !== null) reject(stops.failure);
      else resolve({ code, stdout: output.stdout(), stderr: output.stderr(), timedOut: stops.timedOut });
    });
  });
}

/** What stops a run early, the abort signal and the timeout, each killing its group; `failure` is what it rejects with. */
function watchStops(options: RunProcessOptions, killGroup: () => void) {
  const stops = {
    timedOut: false,
    failure: null as unknown,
    fail(error: unknown) {
      stops.failure ??= error;
      killGroup();
    },
    release() {
      if (timer !== null) clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
    },
  };
  const onAbort = () => stops.fail(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  const timer =
    options.timeoutMs === undefined
      ? null
      : setTimeout(() => {
          stops.timedOut = true;
          killGroup();
        }, options.timeoutMs);
  return stops;
}

/** Stdout collected (failing past its limit) or handed on line by line, and the tail of stderr. */
function collectOutput(child: SupervisedChild, options: RunProcessOptions, fail: (error: unknown) => void) {
  const maxStdout = options.maxStdoutChars ?? 64 * 1024 * 1024;
  const maxStderr = options.maxStderrChars ?? 64 * 1024;
  let stdout = '';
  let stderr = '';
  let pendingLine = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (options.onStdoutLine === undefined) {
      stdout += chunk;
      if (stdout.length > maxStdout) fail(new OutputTooLargeError(maxStdout));
      return;
    }
    const lines = (pendingLine + chunk).split('\n');
    pendingLine = lines.pop() ?? '';
    for (const line of lines) options.onStdoutLine(line.replace(/\r$/, ''));
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-maxStderr);
  });
  return {
    stdout: () => stdout,
    stderr: () => stderr,
    /** The last line, when the output did not end with a newline. */
    flush: () => {
      if (pendingLine !== '') options.onStdoutLine?.(pendingLine);
    },
  };
}
