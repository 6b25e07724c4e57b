import { existsSync } from 'node:fs';
import path from 'node:path';
import { locateCommand } from '../locate-command.js';
import type { StartedProcess } from '../run-process.js';
import { pythonOfYtDlp } from '../warm/python-of-yt-dlp.js';
import { ForkServerProcess } from './fork-server-process.js';

export interface YtDlpForkServerOptions {
  ytDlpPath: string;
  /** The environment a yt-dlp run gets (PYTHONPATH for plugins, the locale). */
  env: NodeJS.ProcessEnv;
  /** The options every run shares (ffmpeg's location): the warm-up probes ffmpeg with them. */
  warmUpArgs: readonly string[];
  /** Which installation of yt-dlp runs now (see createYtDlpExtractor): a server that imported an earlier one retires. */
  installation?: () => Promise<number>;
  /** Default: the interpreter of yt-dlp's `#!` line. Tests name another. */
  python?: readonly string[] | null;
  /** Default: yt_dlp_fork_server.py shipped beside this file's source. */
  script?: string;
  /** A server not ready by then (warm-up included) is killed and started again later. Default 60 s. */
  readyTimeoutMs?: number;
  /** Before a server that died is started again; doubles while it keeps dying, up to a minute. Default 1 s. */
  restartDelayMs?: number;
  /** Launch the server when the first run asks for one (`firstRun`), not at `start()`. Default false. */
  launchOnFirstRun?: boolean;
  /** Told each time a server is ready to take runs (logged: from then on downloads fork). */
  onReady?: (pid: number | undefined) => void;
}

/** A server that served this long before dying is started again without back-off. */
const HEALTHY_MS = 30_000;
const MAX_RESTART_DELAY_MS = 60_000;

/**
 * Downloads forked from one long-lived yt-dlp (yt_dlp_fork_server.py): Python's start-up, yt_dlp's import, its
 * extractors and the probe of ffmpeg's version are paid once per worker process instead of once per download, in time
 * and in CPU. Each run is still a process of its own leading its own process group, so cancelling and timeouts kill
 * just that run with the ffmpeg it started, and the service's death kills them all (the server's input ends). While no
 * server is ready (starting, restarting after a death, yt-dlp not a Python script) `take` answers null and the run
 * starts the command as usual.
 */
export class YtDlpForkServer {
  private server: ForkServerProcess | null = null;
  private readonly retired = new Set<ForkServerProcess>();
  private running = false;
  private launching: Promise<void> | null = null;
  private restartTimer: NodeJS.Timeout | null = null;
  private failures = 0;
  /** A server launched on first use was launched: restarts after that are the restart timer's. */
  private launchedOnce = false;

  constructor(private readonly options: YtDlpForkServerOptions) {}

  start(): void {
    this.running = true;
    if (this.options.launchOnFirstRun !== true) this.launch();
  }

  /**
   * Before a run: a server launched on first use is launched now, in the background. The run does not wait for it: a
   * server's warm-up (every extractor imported, ffmpeg probed) costs more than one run started as a command, so like
   * every run while no server is ready, this one starts the command.
   */
  firstRun(): void {
    if (!this.running || this.options.launchOnFirstRun !== true || this.launchedOnce) return;
    this.launchedOnce = true;
    this.launch();
  }

  /** Whether a server was launched since `start()` (for tests and diagnostics). */
  get launchedYet(): boolean {
    return this.launching !== null || this.server !== null;
  }

  /** Ends the servers; a run still going on one is killed with it. */
  stop(): void {
    this.running = false;
    if (this.restartTimer !== null) clearTimeout(this.restartTimer);
    this.restartTimer = null;
    this.server?.end();
    this.server = null;
    for (const server of this.retired) server.end();
  }

  /** The process id of the server taking runs, once it is ready (for tests and diagnostics). */
  get serverPid(): number | undefined {
    return this.server?.ready === true ? this.server.pid : undefined;
  }

  /**
   * A run of `argv` in `cwd` forked from the server of `installation`, or null when none is ready. Synchronous, so the
   * caller attaches its listeners before any event of the run.
   */
  take(installation: number, argv: readonly string[], cwd: string | undefined): StartedProcess | null {
    const server = this.server;
    if (!this.running || server === null || !server.ready) return null;
    if (server.installation !== installation) {
      this.server = null;
      this.retired.add(server);
      server.retire();
      this.launch();
      return null;
    }
    return server.run(argv, cwd === undefined ? null : path.resolve(cwd));
  }

  private launch(): void {
    if (this.launching !== null || !this.running) return;
    this.launching = this.startServer().finally(() => {
      this.launching = null;
    });
  }

  private async startServer(): Promise<void> {
    const command = await this.command();
    const installation = (await this.options.installation?.()) ?? 0;
    // Not a Python launcher (a frozen binary): every run starts the command.
    if (command === null || !this.running) return;
    let readyAt: number | null = null;
    // yt-dlp's own file comes last on the path: a zipapp release is importable from it, and a plain script there is ignored.
    const pythonPath = [
      this.options.env.PYTHONPATH,
      (await locateCommand(this.options.ytDlpPath, this.options.env.PATH)) ?? undefined,
    ]
      .filter((entry) => entry !== undefined && entry !== '')
      .join(path.delimiter);
    const server = new ForkServerProcess({
      command,
      env: { ...this.options.env, PYTHONPATH: pythonPath },
      warmUpArgs: this.options.warmUpArgs,
      installation,
      onExit: () => {
        this.retired.delete(server);
        if (this.server !== server) return;
        this.server = null;
        this.failures = readyAt !== null && Date.now() - readyAt >= HEALTHY_MS ? 0 : this.failures + 1;
        this.scheduleRestart();
      },
    });
    this.server = server;
    const timer = setTimeout(() => server.kill(), this.options.readyTimeoutMs ?? 60_000);
    timer.unref();
    if (await server.whenReady()) {
      readyAt = Date.now();
      this.options.onReady?.(server.pid);
    }
    clearTimeout(timer);
  }

  private scheduleRestart(): void {
    if (!this.running || this.restartTimer !== null) return;
    const base = this.options.restartDelayMs ?? 1_000;
    const delay = Math.min(base * 2 ** Math.max(0, this.failures - 1), MAX_RESTART_DELAY_MS);
    this.restartTimer = setTimeout(() => {
      this.restartTimer = null;
      this.launch();
    }, delay);
    this.restartTimer.unref();
  }

  private async command(): Promise<string[] | null> {
    const script = this.options.script ?? locateForkServerScript();
    const python =
      this.options.python !== undefined ? this.options.python : await pythonOfYtDlp(this.options.ytDlpPath);
    if (python === null || script === null) return null;
    return [...python, script];
  }
}

/** The script stays in the source tree (tsc copies no Python): beside this file, or four levels up from the compiled one. */
function locateForkServerScript(): string | null {
  const candidates = [
    path.join(__dirname, 'yt_dlp_fork_server.py'),
    path.resolve(__dirname, '..', '..', '..', '..', 'infrastructure', 'extractor', 'forked', 'yt_dlp_fork_server.py'),
  ];
  return candidates.find((candidate) => existsSync(candidate)) ?? null;
}
