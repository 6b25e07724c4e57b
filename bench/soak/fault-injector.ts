import type { FixturePlatform } from '../../test/fixtures/platform/fixture-platform.js';
import { findProjectorLeader } from './find-projector-leader.js';
import type { OwnNats } from './own-nats.js';
import type { OwnPostgres } from './own-postgres.js';
import { childrenOf, commandLineOf } from './process-tree.js';
import type { SeededRandom } from './seeded-random.js';
import type { FleetMember, ServiceFleet } from './service-fleet.js';

export const FAULT_CLASSES = [
  'kill-worker',
  'kill-projector-leader',
  'kill-warm-helpers',
  'restart-postgres',
  'restart-nats',
  'platform-429',
] as const;
/** With a NATS cluster: one node killed while the others keep a quorum, restarted later. */
export const CLUSTER_FAULT_CLASSES = [...FAULT_CLASSES, 'kill-nats-node'] as const;
export type FaultClass = (typeof CLUSTER_FAULT_CLASSES)[number];

export interface InjectedFault {
  kind: FaultClass;
  at: number;
  /** When the fault was over: the process restarted, the server back, the platform serving again. */
  endedAt: number;
  detail: string;
  /** From the injection until a download submitted after the fault's end completed; null when none did. */
  recoveredAfterMs: number | null;
  /** Why the fault could not be injected (it threw, found nothing to kill, or only restarting processes); null when it was. */
  failure: string | null;
}

/** A fault that found nothing to act on: the run did not test what its schedule says. */
export class FaultNotInjected extends Error {}

/** How long the projector leader is looked for: leadership may be changing hands after an earlier fault. */
const FIND_LEADER_MS = 15_000;

/** Injects one fault of a class and resolves once it is over. */
export class FaultInjector {
  constructor(
    private readonly fleet: ServiceFleet,
    private readonly postgres: OwnPostgres,
    /** One server, or the nodes of a cluster. */
    private readonly nats: OwnNats[],
    private readonly platform: FixturePlatform,
    private readonly databaseUrl: string,
    private readonly random: SeededRandom,
  ) {}

  /** Answers the fault as injected, or with the reason it could not be (a throw or nothing to act on). */
  async inject(kind: FaultClass): Promise<Omit<InjectedFault, 'recoveredAfterMs'>> {
    const at = Date.now();
    try {
      const detail = await this.perform(kind);
      return { kind, at, endedAt: Date.now(), detail, failure: null };
    } catch (error) {
      const reason = error instanceof FaultNotInjected ? error.message : `threw ${String(error)}`;
      return { kind, at, endedAt: Date.now(), detail: `could not be injected: ${reason}`, failure: reason };
    }
  }

  private async perform(kind: FaultClass): Promise<string> {
    switch (kind) {
      case 'kill-worker': {
        // Only a started worker: killing one still starting after an earlier fault tests nothing new.
        const workers = this.fleet.withRole('worker').filter((member) => this.fleet.isStarted(member));
        if (workers.length === 0) throw new FaultNotInjected('no worker was running (each was restarting)');
        const worker = this.random.pick(workers);
        return this.killMember(worker, '');
      }
      case 'kill-projector-leader': {
        const leader = await this.projectorLeader();
        if (leader === null)
          throw new FaultNotInjected(`no projector held the leader's locks for ${FIND_LEADER_MS} ms`);
        return this.killMember(leader, ', the leader');
      }
      case 'kill-warm-helpers': {
        // As the OOM killer would: the API processes' lookup helpers and the workers' download fork servers, idle or
        // busy (a fork server's downloads then die with it); the service processes live on.
        const killed: number[] = [];
        for (const owner of [...this.fleet.withRole('api'), ...this.fleet.withRole('worker')]) {
          if (owner.pid === null) continue;
          for (const child of await childrenOf(owner.pid)) {
            if (!/python|yt-dlp|yt_dlp/.test(await commandLineOf(child))) continue;
            try {
              process.kill(child, 'SIGKILL');
              killed.push(child);
            } catch {
              // Gone already.
            }
          }
        }
        if (killed.length === 0) throw new FaultNotInjected('no warm helper or fork server was running');
        return `kill -9 of ${killed.length} warm helpers and fork servers (pids ${killed.join(', ')})`;
      }
      case 'restart-postgres': {
        const downMs = this.random.between(1_000, 8_000);
        await this.postgres.stop('immediate');
        await new Promise((resolve) => setTimeout(resolve, downMs));
        await this.postgres.startAgain();
        return `PostgreSQL stopped (immediate) for ${downMs} ms`;
      }
      case 'restart-nats': {
        const downMs = this.random.between(500, 5_000);
        await Promise.all(this.nats.map((node) => node.kill()));
        await new Promise((resolve) => setTimeout(resolve, downMs));
        await Promise.all(this.nats.map((node) => node.startAgain()));
        return `${this.nats.length === 1 ? 'nats-server' : `every node of the NATS cluster (${this.nats.length})`} killed, down for ${downMs} ms`;
      }
      case 'kill-nats-node': {
        if (this.nats.length < 3) throw new FaultNotInjected('NATS is a single server, not a cluster');
        const node = this.random.pick(this.nats);
        const downMs = this.random.between(3_000, 15_000);
        await node.kill();
        await new Promise((resolve) => setTimeout(resolve, downMs));
        await node.startAgain();
        return `NATS node ${node.name} killed, restarted after ${downMs} ms`;
      }
      case 'platform-429': {
        const forMs = this.random.between(3_000, 12_000);
        this.platform.rateLimit(true);
        await new Promise((resolve) => setTimeout(resolve, forMs));
        this.platform.rateLimit(false);
        return `the platform answered 429 for ${forMs} ms`;
      }
    }
  }

  private async killMember(member: FleetMember, note: string): Promise<string> {
    const pid = member.pid;
    if (!(await this.fleet.kill(member, this.random.between(500, 3_000))))
      throw new FaultNotInjected(`${member.name} was not running when it was to be killed`);
    return `kill -9 ${member.name} (pid ${pid})${note}`;
  }

  private async projectorLeader(): Promise<FleetMember | null> {
    const deadline = Date.now() + FIND_LEADER_MS;
    for (;;) {
      const leader = await findProjectorLeader(this.databaseUrl, this.fleet.withRole('projector'));
      if (leader !== null || Date.now() > deadline) return leader;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
}
