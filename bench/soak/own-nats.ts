import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { freePort, waitForPort } from './free-port.js';

const CANDIDATES = ['/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server'];

/**
 * A NATS server with JetStream of the soak's own, on a free loopback port,
 * its stream data in the run directory, so killing and restarting it as a
 * fault keeps the queue and touches no other server.
 */
export class OwnNats {
  private child: ChildProcess | null = null;

  private constructor(
    private readonly binary: string,
    private readonly storeDir: string,
    private readonly logFile: string,
    readonly port: number,
  ) {}

  static async start(runDir: string): Promise<OwnNats> {
    const binary = await findBinary();
    const server = new OwnNats(binary, path.join(runDir, 'nats'), path.join(runDir, 'nats.log'), await freePort());
    await server.startAgain();
    return server;
  }

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async startAgain(): Promise<void> {
    const child = spawn(this.binary, ['-a', '127.0.0.1', '-p', String(this.port), '-js', '-sd', this.storeDir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const log = createWriteStream(this.logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.child = child;
    await waitForPort(this.port, 30_000);
  }

  /** SIGKILL: the clients see the connection drop with nothing said. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = null;
    if (child === null || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  }
}

async function findBinary(): Promise<string> {
  for (const candidate of CANDIDATES)
    if (
      await access(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
  throw new Error('no nats-server found: install it (npm run setup -- --servers)');
}
