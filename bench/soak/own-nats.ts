import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { freePort, waitForPort } from './free-port.js';

const CANDIDATES = ['/usr/sbin/nats-server', '/usr/local/bin/nats-server', '/usr/bin/nats-server'];
/** How long a started server may take until its JetStream answers healthy (a cluster node: a meta leader and caught up). */
const HEALTHY_WITHIN_MS = 60_000;

/** A node's place in a cluster: its name, its route port, and the other nodes' route URLs. */
export interface ClusterMembership {
  clusterName: string;
  serverName: string;
  routePort: number;
  routes: string[];
}

/**
 * A NATS server with JetStream of the soak's own, on a free loopback port,
 * its stream data in the run directory, so killing and restarting it as a
 * fault keeps the queue and touches no other server. Alone, or one node of a
 * cluster.
 */
export class OwnNats {
  private child: ChildProcess | null = null;

  private constructor(
    private readonly binary: string,
    private readonly files: { storeDir: string; logFile: string },
    readonly ports: { client: number; monitor: number },
    private readonly cluster: ClusterMembership | null,
  ) {}

  /** Starts the server; with `cluster`, as a node of it (`name` keeps its files apart from the other nodes'). */
  static async start(runDir: string, name = 'nats', cluster: ClusterMembership | null = null): Promise<OwnNats> {
    const server = await OwnNats.create(runDir, name, cluster);
    await server.startAgain();
    return server;
  }

  /** Prepares a server without starting it, for nodes that must start together. */
  static async create(runDir: string, name: string, cluster: ClusterMembership | null): Promise<OwnNats> {
    const files = { storeDir: path.join(runDir, name), logFile: path.join(runDir, `${name}.log`) };
    return new OwnNats(await findBinary(), files, { client: await freePort(), monitor: await freePort() }, cluster);
  }

  get url(): string {
    return `nats://127.0.0.1:${this.ports.client}`;
  }

  get name(): string {
    return this.cluster?.serverName ?? 'nats';
  }

  /** Starts the stopped server and waits until its JetStream reports healthy. */
  async startAgain(): Promise<void> {
    const args = ['-a', '127.0.0.1', '-p', String(this.ports.client), '-m', String(this.ports.monitor)];
    args.push('-js', '-sd', this.files.storeDir);
    if (this.cluster !== null)
      args.push(
        '-n',
        this.cluster.serverName,
        '--cluster_name',
        this.cluster.clusterName,
        '--cluster',
        `nats://127.0.0.1:${this.cluster.routePort}`,
        '--routes',
        this.cluster.routes.join(','),
      );
    const child = spawn(this.binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const log = createWriteStream(this.files.logFile, { flags: 'a' });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    this.child = child;
    await waitForPort(this.ports.client, 30_000);
    await this.untilHealthy();
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

  private async untilHealthy(): Promise<void> {
    const deadline = Date.now() + HEALTHY_WITHIN_MS;
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${this.ports.monitor}/healthz`, {
        signal: AbortSignal.timeout(2_000),
      }).then(
        (response) => response.status,
        () => null,
      );
      if (status === 200) return;
      if (Date.now() > deadline) throw new Error(`${this.name}: JetStream not healthy within ${HEALTHY_WITHIN_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
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
