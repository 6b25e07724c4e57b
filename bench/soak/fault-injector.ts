import type { FixturePlatform } from '../../test/fixtures/platform/fixture-platform.js';
import { findProjectorLeader } from './find-projector-leader.js';
import type { OwnNats } from './own-nats.js';
import type { OwnPostgres } from './own-postgres.js';
import { childrenOf, commandLineOf } from './process-tree.js';
import type { SeededRandom } from './seeded-random.js';
import type { ServiceFleet } from './service-fleet.js';

export const FAULT_CLASSES = [
  'kill-worker',
  'kill-projector-leader',
  'kill-warm-helpers',
  'restart-postgres',
  'restart-nats',
  'platform-429',
] as const;
export type FaultClass = (typeof FAULT_CLASSES)[number];

export interface InjectedFault {
  kind: FaultClass;
  at: number;
  /** When the fault was over: the process restarted, the server back, the platform serving again. */
  endedAt: number;
  detail: string;
  /** From the injection until a download submitted after the fault's end completed; null when none did. */
  recoveredAfterMs: number | null;
}

/** Injects one fault of a class and resolves once it is over. */
export class FaultInjector {
  constructor(
    private readonly fleet: ServiceFleet,
    private readonly postgres: OwnPostgres,
    private readonly nats: OwnNats,
    private readonly platform: FixturePlatform,
    private readonly databaseUrl: string,
    private readonly random: SeededRandom,
  ) {}

  async inject(kind: FaultClass): Promise<Omit<InjectedFault, 'recoveredAfterMs'>> {
    const at = Date.now();
    const detail = await this.perform(kind);
    return { kind, at, endedAt: Date.now(), detail };
  }

  private async perform(kind: FaultClass): Promise<string> {
    switch (kind) {
      case 'kill-worker': {
        const worker = this.random.pick(this.fleet.withRole('worker'));
        const pid = worker.pid;
        await this.fleet.kill(worker, this.random.between(500, 3_000));
        return `kill -9 ${worker.name} (pid ${pid})`;
      }
      case 'kill-projector-leader': {
        const projectors = this.fleet.withRole('projector');
        const leader = await findProjectorLeader(this.databaseUrl, projectors);
        const victim = leader ?? this.random.pick(projectors);
        const pid = victim.pid;
        await this.fleet.kill(victim, this.random.between(500, 3_000));
        return `kill -9 ${victim.name} (pid ${pid})${leader === null ? ', the leader could not be told apart' : ', the leader'}`;
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
        return `kill -9 of ${killed.length} warm helpers and fork servers (pids ${killed.join(', ') || 'none found'})`;
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
        await this.nats.kill();
        await new Promise((resolve) => setTimeout(resolve, downMs));
        await this.nats.startAgain();
        return `nats-server killed, down for ${downMs} ms`;
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
}
