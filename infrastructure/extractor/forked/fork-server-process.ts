import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import type { StartedProcess } from '../run-process.js';
import { ForkedRun } from './forked-run.js';

/** One line of the server's control output (see yt_dlp_fork_server.py). */
interface ServerMessage {
  ready?: boolean;
  run?: number;
  pid?: number;
  fd?: number;
  data?: string;
  exit?: number;
}

export interface ForkServerLaunch {
  /** The interpreter and its arguments, then the script. */
  command: readonly string[];
  env: NodeJS.ProcessEnv;
  /** The options every run shares, for the warm-up. */
  warmUpArgs: readonly string[];
  /** Which installation of yt-dlp it imported. */
  installation: number;
  /** Called once when it has exited (or could not start). */
  onExit: () => void;
}

/**
 * One running fork server and its runs. The server's stdin is the only thing that keeps it serving: when this process
 * dies, however it dies, the server's input ends and it kills every run's process group before exiting, as a spawned
 * run's watchdog would. When the server dies instead, its runs are killed here and end as killed.
 */
export class ForkServerProcess {
  readonly installation: number;
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private readonly runs = new Map<number, ForkedRun>();
  private nextRunId = 1;
  private isReady = false;
  private exited = false;
  private retiring = false;
  private readonly exitListener: () => void;
  private readonly readyWaiters: Array<(ready: boolean) => void> = [];

  constructor(launch: ForkServerLaunch) {
    this.installation = launch.installation;
    this.exitListener = launch.onExit;
    const [program, ...args] = launch.command;
    this.child = spawn(program, [...args, JSON.stringify(launch.warmUpArgs)], {
      env: launch.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child.on('error', () => this.onExit());
    this.child.stdin.on('error', () => undefined);
    // Its own warnings (a failed warm-up) are of no use to a run; read so that the pipe never fills.
    this.child.stderr.resume();
    // 'close', not 'exit': the output it wrote before dying (runs' ends) is read first.
    this.child.once('close', () => this.onExit());
    createInterface({ input: this.child.stdout, crlfDelay: Number.POSITIVE_INFINITY }).on('line', (line) =>
      this.onMessage(line),
    );
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get ready(): boolean {
    return this.isReady && !this.exited;
  }

  /** Resolves true once it takes runs, false when it exits first. */
  whenReady(): Promise<boolean> {
    if (this.exited) return Promise.resolve(false);
    if (this.isReady) return Promise.resolve(true);
    return new Promise((resolve) => this.readyWaiters.push(resolve));
  }

  /** Forks a run of `argv` in `cwd`. */
  run(argv: readonly string[], cwd: string | null): StartedProcess {
    const id = this.nextRunId++;
    const run = new ForkedRun();
    this.runs.set(id, run);
    this.send({ run: id, argv, cwd });
    return {
      child: run,
      killGroup: () => {
        if (!run.hasEnded) this.send({ kill: id });
      },
      release: () => undefined,
    };
  }

  /** Ends the server: its input closes, and it kills the runs still going. */
  end(): void {
    this.child.stdin.end();
  }

  /** Ends the server once its runs have ended (an earlier installation of yt-dlp: its runs finish on it). */
  retire(): void {
    this.retiring = true;
    if (this.runs.size === 0) this.end();
  }

  /** Kills the server outright (it did not become ready in time). */
  kill(): void {
    this.child.kill('SIGKILL');
  }

  private send(message: object): void {
    if (!this.exited) this.child.stdin.write(`${JSON.stringify(message)}\n`);
  }

  private onMessage(line: string): void {
    let message: ServerMessage;
    try {
      message = JSON.parse(line) as ServerMessage;
    } catch {
      return;
    }
    if (message.ready === true) {
      this.isReady = true;
      for (const waiter of this.readyWaiters.splice(0)) waiter(true);
      return;
    }
    const run = message.run === undefined ? undefined : this.runs.get(message.run);
    if (run === undefined) return;
    if (message.pid !== undefined) run.forked(message.pid);
    else if (message.data !== undefined) run.output(message.fd ?? 1, Buffer.from(message.data, 'base64'));
    else if (message.exit !== undefined) {
      this.runs.delete(message.run as number);
      run.exited(message.exit);
      if (this.retiring && this.runs.size === 0) this.end();
    }
  }

  private onExit(): void {
    if (this.exited) return;
    this.exited = true;
    for (const waiter of this.readyWaiters.splice(0)) waiter(false);
    for (const run of this.runs.values()) {
      // Orphaned, its group would go on downloading: it is killed, and ends as a killed run would.
      if (run.pid !== undefined) killGroup(run.pid);
      run.exited(null);
    }
    this.runs.clear();
    this.exitListener();
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}
