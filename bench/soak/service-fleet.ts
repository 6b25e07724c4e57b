import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import path from 'node:path';
import { connectedTo } from './process-tree.js';

const MAIN = path.join(__dirname, '..', '..', 'infrastructure', 'main.js');

export interface FleetMember {
  name: string;
  roles: string[];
  /** The API's port; null for the roles without HTTP. */
  port: number | null;
  pid: number | null;
  starts: number;
  /** Exits the soak did not cause, each restarted as a supervisor would. */
  unexpectedExits: Array<{ at: number; code: number | null; signal: string | null }>;
}

interface Running {
  member: FleetMember;
  child: ChildProcess;
  expectedExit: boolean;
  started: boolean;
  exited: Promise<void>;
}

/**
 * The service as several processes on one database and stream, each
 * restarted after it dies, as a container's restart policy would: the soak
 * kills some on purpose, and counts the deaths it did not cause.
 */
export class ServiceFleet {
  private readonly running = new Map<string, Running>();
  private readonly all: FleetMember[] = [];
  private stopping = false;

  constructor(
    private readonly env: Record<string, string>,
    private readonly logDir: string,
    /** A process counts as started once it is connected to the database (the API: once it answers /healthz). */
    private readonly databasePort: number,
  ) {
    // However the soak ends, the processes it started end with it.
    process.once('exit', () => {
      for (const running of this.running.values()) running.child.kill('SIGKILL');
    });
  }

  members(): readonly FleetMember[] {
    return this.all;
  }

  withRole(role: string): FleetMember[] {
    return this.all.filter((member) => member.roles.includes(role));
  }

  async add(name: string, roles: string[], port: number | null): Promise<FleetMember> {
    const member: FleetMember = { name, roles, port, pid: null, starts: 0, unexpectedExits: [] };
    this.all.push(member);
    await this.launch(member);
    return member;
  }

  /** Whether the member's current process got through its start (the API: answers /healthz; others: on the database). */
  isStarted(member: FleetMember): boolean {
    return this.running.get(member.name)?.started === true;
  }

  /**
   * SIGKILL, then a restart after `restartAfterMs`; resolves once it is started again, not waiting until it is ready.
   * Answers false when the member had no process to kill.
   */
  async kill(member: FleetMember, restartAfterMs: number): Promise<boolean> {
    const running = this.running.get(member.name);
    if (running === undefined) return false;
    running.expectedExit = true;
    running.child.kill('SIGKILL');
    await running.exited;
    await new Promise((resolve) => setTimeout(resolve, restartAfterMs));
    if (!this.stopping) void this.launch(member);
    return true;
  }

  /** SIGTERM to every process; answers how long each took to exit, null for one that had to be killed after `timeoutMs`. */
  async stopAll(timeoutMs: number): Promise<Array<{ name: string; exitedAfterMs: number | null }>> {
    this.stopping = true;
    return Promise.all(
      [...this.running.values()].map(async (running) => {
        running.expectedExit = true;
        const started = Date.now();
        running.child.kill('SIGTERM');
        const inTime = await Promise.race([
          running.exited.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), timeoutMs)),
        ]);
        if (!inTime) {
          running.child.kill('SIGKILL');
          await running.exited;
        }
        return { name: running.member.name, exitedAfterMs: inTime ? Date.now() - started : null };
      }),
    );
  }

  private async launch(member: FleetMember): Promise<void> {
    member.starts += 1;
    const env = {
      ...process.env,
      ...this.env,
      ...(member.port === null
        ? {}
        : { PORT: String(member.port), PUBLIC_BASE_URL: `http://127.0.0.1:${member.port}` }),
    };
    const child = spawn(process.execPath, [MAIN, ...member.roles.flatMap((role) => ['--role', role])], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(path.join(this.logDir, `${member.name}.log`), { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    member.pid = child.pid ?? null;
    const running: Running = {
      member,
      child,
      expectedExit: false,
      started: false,
      exited: new Promise<void>((resolve) =>
        child.once('exit', (code, signal) => {
          resolve();
          if (this.running.get(member.name)?.child === child) this.running.delete(member.name);
          member.pid = null;
          if (!running.expectedExit && !this.stopping) {
            member.unexpectedExits.push({ at: Date.now(), code, signal });
            setTimeout(() => void this.launch(member), 1_000);
          }
        }),
      ),
    };
    this.running.set(member.name, running);
    // A start may wait for the database or NATS while a fault lasts; the supervisor does not wait for ever.
    const deadline = Date.now() + 90_000;
    while (Date.now() < deadline && child.exitCode === null && child.signalCode === null) {
      if (await this.started(member, child.pid ?? 0)) {
        running.started = true;
        return;
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  private async started(member: FleetMember, pid: number): Promise<boolean> {
    if (member.port === null) return connectedTo(pid, this.databasePort);
    return fetch(`http://127.0.0.1:${member.port}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
      (response) => response.ok,
      () => false,
    );
  }
}
