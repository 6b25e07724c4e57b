import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { watchProcessGroup } from '../process-group-watchdog.js';
import type { StartedProcess } from '../run-process.js';
import { pythonOfYtDlp } from '../warm/python-of-yt-dlp.js';

export interface SpareYtDlpOptions {
  ytDlpPath: string;
  /** How many to keep started; 0 keeps none. */
  count: number;
  /** The environment a yt-dlp run gets (PYTHONPATH for plugins, the locale). */
  env: NodeJS.ProcessEnv;
  /** Which installation of yt-dlp runs now (see createYtDlpExtractor): a spare imported from an earlier one is discarded. */
  installation?: () => Promise<number>;
  /** Default: the interpreter of yt-dlp's `#!` line. Tests name another. */
  python?: readonly string[] | null;
  /** Default: yt_dlp_spare.py shipped beside this file's source. */
  script?: string;
}

interface Spare {
  child: ChildProcessByStdio<Writable, Readable, Readable>;
  watchdog: { release(): void } | null;
  installation: number;
  exited: boolean;
}

/**
 * yt-dlp processes started ahead of the runs that will use them (yt_dlp_spare.py): each has paid Python's start-up and
 * yt_dlp's import while idle, and runs one command once handed its arguments. A run so started is still its own
 * process group with its own watchdog, so cancelling, timeouts and the service's death kill it as they would a spawned
 * `yt-dlp`. A spare taken is replaced when its run ends. Only Python-script launchers can be started this way; for
 * others `take` answers null and runs spawn the command as before.
 */
export class SpareYtDlpProcesses {
  private readonly spares: Spare[] = [];
  private running = false;
  private python: readonly string[] | null | undefined;
  private filling: Promise<void> | null = null;

  constructor(private readonly options: SpareYtDlpOptions) {}

  /** Starts keeping `count` spares; until then (and after stop) `take` answers null. */
  start(): void {
    if (this.options.count <= 0) return;
    this.running = true;
    this.fill();
  }

  /** Ends the idle spares; runs already handed out go on. */
  stop(): void {
    this.running = false;
    for (const spare of this.spares.splice(0)) discard(spare);
  }

  /**
   * A spare of `installation`, handed `argv` to run in `cwd`, or null when
   * none is alive. Synchronous, so the caller attaches its listeners before
   * any event of the child.
   */
  take(installation: number, argv: readonly string[], cwd: string | undefined): StartedProcess | null {
    if (!this.running) return null;
    for (const stale of this.spares.filter((spare) => spare.installation !== installation)) this.remove(stale, true);
    const spare = this.spares.find((candidate) => !candidate.exited);
    // One start per run at most, even for an install whose spares keep dying. A taken spare is replaced once its run
    // has ended: a start beside the run (most of a second of CPU) would slow it down on a busy machine.
    if (spare === undefined) {
      this.fill();
      return null;
    }
    this.remove(spare, false);
    spare.child.once('close', () => this.fill());
    spare.child.stdin.end(`${JSON.stringify({ argv, cwd: cwd === undefined ? null : path.resolve(cwd) })}\n`);
    return { child: spare.child, watchdog: spare.watchdog };
  }

  private remove(spare: Spare, kill: boolean): void {
    this.spares.splice(this.spares.indexOf(spare), 1);
    if (kill) discard(spare);
  }

  /** Tops the spares up to `count`, one start at a time (each is most of a second of CPU). */
  private fill(): void {
    if (this.filling !== null) return;
    this.filling = (async () => {
      try {
        while (this.running && this.spares.length < this.options.count) {
          if (!(await this.startOne())) return;
        }
      } finally {
        this.filling = null;
      }
    })();
  }

  private async startOne(): Promise<boolean> {
    const script = this.options.script ?? locateSpareScript();
    if (this.python === undefined)
      this.python =
        this.options.python !== undefined ? this.options.python : await pythonOfYtDlp(this.options.ytDlpPath);
    if (this.python === null || script === null) return false;
    const installation = (await this.options.installation?.()) ?? 0;
    if (!this.running) return false;
    const [command, ...args] = this.python;
    // yt-dlp's own file comes last on the path: a zipapp release is importable from it, and a plain script there is ignored.
    const pythonPath = [this.options.env.PYTHONPATH, this.options.ytDlpPath]
      .filter((entry) => entry !== undefined && entry !== '')
      .join(path.delimiter);
    const child = spawn(command, [...args, script], {
      env: { ...this.options.env, PYTHONPATH: pythonPath },
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    if (child.pid === undefined) {
      child.on('error', () => undefined);
      return false;
    }
    const spare: Spare = { child, watchdog: watchProcessGroup(child.pid), installation, exited: false };
    child.stdin.on('error', () => undefined);
    child.on('error', () => undefined);
    // A spare that dies idle (the OOM killer, a broken install) leaves its place, refilled by the next take.
    child.once('exit', () => {
      spare.exited = true;
      if (this.spares.includes(spare)) {
        this.spares.splice(this.spares.indexOf(spare), 1);
        spare.watchdog?.release();
      }
    });
    this.spares.push(spare);
    return true;
  }
}

function discard(spare: Spare): void {
  // Its input ends: it exits without running anything; the kill covers one still importing.
  spare.child.stdin.end();
  if (spare.child.pid !== undefined && !spare.exited) {
    try {
      process.kill(-spare.child.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  spare.watchdog?.release();
}

/** The script stays in the source tree (tsc copies no Python): beside this file, or four levels up from the compiled one. */
function locateSpareScript(): string | null {
  const candidates = [
    path.join(__dirname, 'yt_dlp_spare.py'),
    path.resolve(__dirname, '..', '..', '..', '..', 'infrastructure', 'extractor', 'spare', 'yt_dlp_spare.py'),
  ];
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}
