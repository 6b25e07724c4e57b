import { chown, mkdir, readdir } from 'node:fs/promises';
import { getpwnam } from './user-ids.js';
import path from 'node:path';
import { freePort } from './free-port.js';
import { runCommand } from './run-command.js';

/**
 * A PostgreSQL server of the soak's own, in its run directory, on a free
 * loopback port with trust authentication, so the soak can stop and restart
 * it as a fault without touching any other server on the machine.
 */
export class OwnPostgres {
  private constructor(
    private readonly bin: string,
    private readonly dataDir: string,
    private readonly logFile: string,
    readonly port: number,
  ) {}

  static async start(runDir: string): Promise<OwnPostgres> {
    const bin = await postgresBin();
    const root = path.join(runDir, 'postgres');
    await mkdir(root, { recursive: true });
    const user = process.getuid?.() === 0 ? await getpwnam('postgres') : null;
    if (user !== null) await chown(root, user.uid, user.gid);
    const server = new OwnPostgres(bin, path.join(root, 'data'), path.join(root, 'server.log'), await freePort());
    await runCommand(
      path.join(bin, 'initdb'),
      ['-D', server.dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8'],
      { asUser: 'postgres' },
    );
    await server.startAgain();
    return server;
  }

  url(database: string): string {
    return `postgres://postgres@127.0.0.1:${this.port}/${database}`;
  }

  /** Starts the stopped server and waits until it accepts connections. */
  async startAgain(): Promise<void> {
    // Many service processes, each with its pools; durability is not what the soak measures, so no fsync.
    const settings = `-p ${this.port} -k ${path.dirname(this.dataDir)} -c listen_addresses=127.0.0.1 -c max_connections=400 -c fsync=off -c full_page_writes=off`;
    await runCommand(
      path.join(this.bin, 'pg_ctl'),
      ['-D', this.dataDir, '-l', this.logFile, '-o', settings, '-w', '-t', '60', 'start'],
      { asUser: 'postgres' },
    );
  }

  /** `immediate` is a crash as far as the clients can tell: every connection is cut at once. */
  async stop(mode: 'fast' | 'immediate'): Promise<void> {
    await runCommand(path.join(this.bin, 'pg_ctl'), ['-D', this.dataDir, '-m', mode, '-w', '-t', '60', 'stop'], {
      asUser: 'postgres',
    });
  }

  async stopQuietly(): Promise<void> {
    await this.stop('fast').catch(() => this.stop('immediate').catch(() => undefined));
  }
}

async function postgresBin(): Promise<string> {
  const versions = (await readdir('/usr/lib/postgresql').catch(() => [] as string[])).sort(
    (a, b) => Number(b) - Number(a),
  );
  if (versions.length === 0)
    throw new Error('no PostgreSQL under /usr/lib/postgresql: install the server (npm run setup -- --servers)');
  return path.join('/usr/lib/postgresql', versions[0], 'bin');
}
