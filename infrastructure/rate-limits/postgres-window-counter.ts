import type { Knex } from 'knex';
import type { WindowCount, WindowCounter } from './window-counter.js';

const TABLE = 'rate_limit_windows';
/** Seconds older than this by the database's clock are deleted, at most once per `SWEEP_EVERY_MS`, while requests are counted. */
const KEEP_SECONDS = 10;
const SWEEP_EVERY_MS = 30_000;
/** A count that takes longer fails the request's check (503 with Retry-After) rather than holding it. */
const DEFAULT_COUNT_TIMEOUT_MS = 1_000;
/** Round trips per offset measurement. */
const OFFSET_SAMPLES = 3;

/** The shared count did not answer in time, or failed: requests cannot be counted just now. */
class RateCountUnavailableError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(`The request rate count is unavailable: ${reason}`, options);
    this.name = 'RateCountUnavailableError';
  }
}

export interface PostgresWindowCounterOptions {
  countTimeoutMs?: number;
  /** This machine's clock; only its offset from the database's clock is trusted. */
  localClock?: () => number;
}

/**
 * One row per bucket and second, added to by one atomic upsert that refuses (and adds nothing) past the limit, so
 * every API instance counts in the same second and a refused lease costs the others nothing. The table is UNLOGGED:
 * a crash forgives at most the current second's requests, and no WAL flush is waited for.
 *
 * The seconds are the database's, not each machine's: `now()` is this machine's clock corrected by its offset from
 * PostgreSQL's, measured at open and at every sweep, and the sweep deletes by PostgreSQL's own clock. So instances
 * whose clocks disagree still count in the same rows, and one ahead never deletes the current count of one behind.
 */
export class PostgresWindowCounter implements WindowCounter {
  private lastSweep = 0;
  private offsetMs = 0;
  private readonly countTimeoutMs: number;
  private readonly localClock: () => number;

  private constructor(
    private readonly db: Knex,
    options: PostgresWindowCounterOptions,
  ) {
    this.countTimeoutMs = options.countTimeoutMs ?? DEFAULT_COUNT_TIMEOUT_MS;
    this.localClock = options.localClock ?? Date.now;
  }

  /** Creates the table first, once for all instances, under the lock the read models' schema uses. */
  static async open(db: Knex, options: PostgresWindowCounterOptions = {}): Promise<PostgresWindowCounter> {
    await db.transaction(async (trx) => {
      await trx.raw(`SELECT pg_advisory_xact_lock(hashtext('read-model-schema'))`);
      await trx.raw(
        `CREATE UNLOGGED TABLE IF NOT EXISTS ${TABLE} (bucket text NOT NULL, epoch_second bigint NOT NULL, ` +
          'points integer NOT NULL, PRIMARY KEY (bucket, epoch_second))',
      );
    });
    const counter = new PostgresWindowCounter(db, options);
    await counter.measureOffset();
    return counter;
  }

  /** Milliseconds since the epoch by the database's clock, as this instance estimates it: the windows' clock. */
  now(): number {
    return this.localClock() + this.offsetMs;
  }

  async add(bucket: string, epochSecond: number, limit: number, points: number): Promise<WindowCount> {
    if (points > limit) return { allowed: false, remaining: 0 };
    this.sweepNow();
    const { rows } = await this.timed(
      this.db.raw<{ rows: Array<{ points: number }> }>(
        `INSERT INTO ${TABLE} AS counted (bucket, epoch_second, points) VALUES (?, ?, ?) ` +
          'ON CONFLICT (bucket, epoch_second) DO UPDATE SET points = counted.points + excluded.points ' +
          'WHERE counted.points + excluded.points <= ? RETURNING points',
        [bucket, epochSecond, points, limit],
      ),
    );
    return rows.length === 0 ? { allowed: false, remaining: 0 } : { allowed: true, remaining: limit - rows[0].points };
  }

  /** Deletes the seconds past `KEEP_SECONDS` by the database's clock, then measures this instance's offset from it. */
  async sweep(): Promise<void> {
    await this.db.raw(
      `DELETE FROM ${TABLE} WHERE epoch_second < floor(extract(epoch FROM clock_timestamp())) - ${KEEP_SECONDS}`,
    );
    await this.measureOffset();
  }

  private sweepNow(): void {
    const now = this.localClock();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    // A failed sweep is retried by the next one; the rows it left only take space, and the offset stays as measured.
    this.sweep().catch(() => undefined);
  }

  /**
   * The database's time against this machine's over a few round trips; the shortest bounds the offset best. Of the
   * offsets it allows, the one nearest zero is taken: machines whose clocks agree (as on one host) keep exactly the same
   * seconds, however long the round trip, and a real skew is corrected to within half a round trip.
   */
  private async measureOffset(): Promise<void> {
    let best = { roundTripMs: Number.POSITIVE_INFINITY, offsetMs: this.offsetMs };
    for (let sample = 0; sample < OFFSET_SAMPLES; sample += 1) {
      const sent = this.localClock();
      const { rows } = await this.db.raw<{ rows: Array<{ now_ms: number }> }>(
        'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS now_ms',
      );
      const received = this.localClock();
      if (received - sent < best.roundTripMs)
        best = { roundTripMs: received - sent, offsetMs: Number(rows[0].now_ms) - (sent + received) / 2 };
    }
    const uncertainMs = best.roundTripMs / 2;
    this.offsetMs = Math.sign(best.offsetMs) * Math.max(0, Math.abs(best.offsetMs) - uncertainMs);
  }

  /** `work`, or a RateCountUnavailableError once it fails or takes longer than the count timeout. */
  private async timed<T>(work: Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new RateCountUnavailableError(`no answer within ${this.countTimeoutMs} ms`)),
        this.countTimeoutMs,
      );
    });
    try {
      return await Promise.race([work, late]);
    } catch (error) {
      if (error instanceof RateCountUnavailableError) {
        work.catch(() => undefined);
        throw error;
      }
      throw new RateCountUnavailableError('the database failed', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }
}
