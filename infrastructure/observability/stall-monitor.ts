import type { Knex } from 'knex';
import { Gauge, type Registry } from 'prom-client';
import { decodePosition } from '../event-store/postgres/checkpoint.js';
import { CHECKPOINT_TABLE } from '../processing/checkpoint-schema.js';

/**
 * What holds the PostgreSQL event store's readers back, measured where it
 * happens: the age of the oldest transaction on the server that has an id
 * (readers wait below it, whatever database it runs in), and each
 * processor's lag, the age of the oldest event past its stored watermark
 * (counting events still hidden behind that transaction).
 */
export class StallMonitor {
  constructor(
    private readonly db: Knex,
    private readonly processorNames: readonly string[],
  ) {}

  /** Seconds; 0 when no transaction with an id is open elsewhere. */
  async horizonAgeSeconds(): Promise<number> {
    const { rows } = await this.db.raw<{ rows: Array<{ age: string | null }> }>(
      `SELECT extract(epoch FROM now() - least(
         (SELECT min(xact_start) FROM pg_stat_activity WHERE backend_xid IS NOT NULL AND pid <> pg_backend_pid()),
         (SELECT min(prepared) FROM pg_prepared_xacts)))::text AS age`,
    );
    return Math.max(0, Number(rows[0].age ?? 0));
  }

  /** Seconds per processor that has run somewhere (has a checkpoint row); 0 for one that has handled everything stored. */
  async processorLagSeconds(): Promise<Record<string, number>> {
    const lags: Record<string, number> = {};
    for (const name of this.processorNames) {
      const row = await this.db(CHECKPOINT_TABLE)
        .where({ name })
        .first<{ checkpoint: string | null } | undefined>('checkpoint');
      if (row === undefined) continue;
      const after = row?.checkpoint == null ? null : decodePosition(row.checkpoint);
      const { rows } = await this.db.raw<{ rows: Array<{ lag: string }> }>(
        `SELECT extract(epoch FROM now() - created_at)::text AS lag FROM es_events
         ${after === null ? '' : 'WHERE (epoch, transaction_id, global_position) > (?::integer, ?::xid8, ?::bigint)'}
         ORDER BY epoch, transaction_id, global_position LIMIT 1`,
        after === null ? [] : [after.epoch, after.transactionId, after.globalPosition],
      );
      lags[name] = rows.length === 0 ? 0 : Math.max(0, Number(rows[0].lag));
    }
    return lags;
  }

  /** `vds_event_horizon_age_seconds` and `vds_processor_lag_seconds{processor}`, measured at each scrape. */
  register(registry: Registry): void {
    const monitor = this;
    new Gauge({
      name: 'vds_event_horizon_age_seconds',
      help: 'Age of the oldest open transaction with an id on the PostgreSQL server: event store readers wait below it',
      registers: [registry],
      async collect() {
        // A scrape must not fail because PostgreSQL does: the other metrics still say something.
        this.set(await monitor.horizonAgeSeconds().catch(() => Number.NaN));
      },
    });
    new Gauge({
      name: 'vds_processor_lag_seconds',
      help: 'Age of the oldest event a projection or relay has not handled yet',
      labelNames: ['processor'],
      registers: [registry],
      async collect() {
        const lags = await monitor.processorLagSeconds().catch(() => ({}));
        for (const [processor, lag] of Object.entries(lags)) this.set({ processor }, lag);
      },
    });
  }
}
