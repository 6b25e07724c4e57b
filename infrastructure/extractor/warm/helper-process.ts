import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import { watchProcessGroup } from '../process-group-watchdog.js';

export interface HelperOptions {
  /** The interpreter and its arguments, e.g. `['/usr/bin/python3']`. */
  python: readonly string[];
  script: string;
  /**
   * Handed to the script as JSON in HELPER_SETTINGS_VARIABLE, not on its command line, which every local user can
   * read (`ps`): the options may hold the egress proxy's credentials.
   */
  settings: Record<string, unknown>;
  env: NodeJS.ProcessEnv;
  readyTimeoutMs: number;
}

/** `stderr` holds what `yt-dlp -J` would have printed there: the warnings of a success, the error of a failure. */
export type HelperAnswer = { ok: true; info: unknown; stderr: string } | { ok: false; stderr: string };

/** The helper ended or was killed with a request under way; `stderr` is its last words. */
export class HelperStoppedError extends Error {
  constructor(readonly stderr: string) {
    super(`The extractor helper stopped: ${stderr.trim().slice(-500) || 'no output'}`);
    this.name = 'HelperStoppedError';
  }
}

const MAX_STDERR_CHARS = 16 * 1024;
/** The helper removes it from its environment at once, so nothing it starts inherits it. */
const HELPER_SETTINGS_VARIABLE = 'YT_DLP_HELPER_SETTINGS';

/**
 * One long-lived helper process speaking JSON lines (see yt_dlp_helper.py),
 * one request at a time. It leads its own process group, so `kill` also ends
 * whatever it started, and a watchdog kills that group if this process dies
 * first: a helper would otherwise notice only when it next reads its input,
 * after finishing the request under way.
 */
export class HelperProcess {
  private nextId = 1;
  private pending: { id: number; resolve: (answer: HelperAnswer) => void; reject: (error: Error) => void } | null =
    null;
  private stderr = '';
  private exited = false;
  private markExited!: () => void;
  /** Settles when the process has ended, however it ended (a pool then frees its place). */
  readonly ended = new Promise<void>((resolve) => {
    this.markExited = resolve;
  });

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {}

  /** Resolves once the script has imported yt_dlp and said so; rejects when it cannot. */
  static start(options: HelperOptions): Promise<{ helper: HelperProcess; version: string }> {
    const [command, ...args] = options.python;
    const child = spawn(command, [...args, options.script], {
      env: { ...options.env, [HELPER_SETTINGS_VARIABLE]: JSON.stringify(options.settings) },
      stdio: 'pipe',
      detached: true,
    });
    const helper = new HelperProcess(child);
    const watchdog = child.pid === undefined ? null : watchProcessGroup(child.pid);
    return new Promise((resolve, reject) => {
      let settled = false;
      const fail = (error: Error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        helper.kill();
        reject(error);
      };
      const timer = setTimeout(
        () => fail(new Error(`the extractor helper was not ready within ${options.readyTimeoutMs} ms`)),
        options.readyTimeoutMs,
      );
      child.once('error', fail);
      // A helper that died leaves a closed pipe; the exit handler reports it.
      child.stdin.on('error', () => undefined);
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
        helper.stderr = (helper.stderr + chunk).slice(-MAX_STDERR_CHARS);
      });
      child.once('exit', () => {
        helper.exited = true;
        helper.markExited();
        watchdog?.release();
        fail(new HelperStoppedError(helper.stderr));
        helper.pending?.reject(new HelperStoppedError(helper.stderr));
        helper.pending = null;
      });
      createInterface({ input: child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) => {
        let message: { ready?: boolean; version?: string; id?: number; ok?: boolean; info?: unknown; stderr?: string };
        try {
          message = JSON.parse(line) as typeof message;
        } catch {
          return;
        }
        if (message.ready === true && !settled) {
          settled = true;
          clearTimeout(timer);
          resolve({ helper, version: String(message.version ?? '') });
          return;
        }
        const pending = helper.pending;
        if (pending === null || message.id !== pending.id) return;
        helper.pending = null;
        const stderr = String(message.stderr ?? '');
        pending.resolve(message.ok === true ? { ok: true, info: message.info, stderr } : { ok: false, stderr });
      });
    });
  }

  get alive(): boolean {
    return !this.exited;
  }

  get busy(): boolean {
    return this.pending !== null;
  }

  /** Requests sent to it so far. */
  get requests(): number {
    return this.nextId - 1;
  }

  /** Its resident memory in bytes (VmRSS, Linux's /proc); null where that cannot be read. */
  async residentBytes(): Promise<number | null> {
    if (this.exited || this.child.pid === undefined) return null;
    const status = await readFile(`/proc/${this.child.pid}/status`, 'utf8').catch(() => '');
    const kilobytes = /^VmRSS:\s*(\d+)\s*kB/m.exec(status)?.[1];
    return kilobytes === undefined ? null : Number(kilobytes) * 1024;
  }

  /**
   * The metadata of one page, after replacing the helper's cookies with those of the file `cookies` when given;
   * rejects with HelperStoppedError when the helper dies or is killed meanwhile.
   */
  extract(url: string, cookies?: string): Promise<HelperAnswer> {
    if (this.pending !== null) return Promise.reject(new Error('the extractor helper is busy'));
    if (this.exited) return Promise.reject(new HelperStoppedError(this.stderr));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending = { id, resolve, reject };
      this.child.stdin.write(`${JSON.stringify({ id, url, cookies })}\n`);
    });
  }

  kill(): void {
    if (this.exited || this.child.pid === undefined) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}
