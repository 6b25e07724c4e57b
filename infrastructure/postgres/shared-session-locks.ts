import type pg from 'pg';
import { sleep } from '../system/sleep.js';
import { connectForLocks, destroyLockConnection, endQuietly, tryAdvisoryLock } from './lock-connection.js';
import {
  type AcquireLock,
  type AcquireLockOptions,
  DEFAULT_PROBE_MS,
  DEFAULT_PROBE_TIMEOUT_MS,
  type HeldLock,
} from './session-advisory-lock.js';

/** What the shared connection shows in `pg_stat_activity`. */
export const SHARED_LOCKS_APPLICATION_NAME = 'leadership locks';

/**
 * Every leadership lock of a process on one connection per database, where
 * a lock per connection had cost a process of every role a dozen
 * connections. A lock still lives exactly as long as its session: when the
 * process dies, PostgreSQL releases them all and waiting instances take over;
 * when the connection is lost (an error, its end, a probe unanswered within
 * the probe timeout), every lock it held is lost at once, and the next
 * acquisition opens a new one. A session grants an advisory lock it already
 * holds again, so keys taken or being tried here are excluded here, as
 * inProcessLocks does. The connection is closed once no lock is held or wanted.
 */
export function sharedSessionLocks(): AcquireLock {
  const sessions = new Map<string, LockSession>();
  return (options) => {
    let session = sessions.get(options.connectionString);
    if (session === undefined) {
      session = new LockSession(options.connectionString, options);
      sessions.set(options.connectionString, session);
    }
    return session.acquire(options);
  };
}

interface Holding {
  lost: AbortController;
  client: pg.Client;
}

class LockSession {
  private client: pg.Client | null = null;
  private connecting: Promise<pg.Client> | null = null;
  private probe: NodeJS.Timeout | null = null;
  /** Keys being tried, and keys held: another processor of this process waits for them. */
  private readonly trying = new Set<string>();
  private readonly held = new Map<string, Holding>();
  /** Acquisitions under way and locks held: the connection is closed when none is left. */
  private users = 0;
  /** Each connection's last statement: the next waits for it, as a client runs one statement at a time. */
  private readonly turns = new WeakMap<pg.Client, Promise<unknown>>();

  constructor(
    private readonly connectionString: string,
    private readonly settings: Pick<AcquireLockOptions, 'probeMs' | 'probeTimeoutMs'>,
  ) {}

  async acquire(options: AcquireLockOptions): Promise<HeldLock | null> {
    const { key, logger } = options;
    const retryMs = options.retryMs ?? 500;
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let waitingLogged = false;
    this.users += 1;
    let holding: HeldLock | null = null;
    try {
      while (!options.signal?.aborted && Date.now() <= deadline) {
        if (!this.trying.has(key) && !this.held.has(key)) {
          this.trying.add(key);
          let client: pg.Client | null = null;
          try {
            client = await this.connection();
            const tried = client;
            if (await this.inTurn(tried, () => tryAdvisoryLock(tried, key))) {
              holding = this.hold(tried, options);
              return holding;
            }
          } catch (error) {
            logger.warn({ lock: key, err: error }, 'Could not try the advisory lock; retrying');
            // Only the connection that failed is given up, not one another acquisition opened since.
            this.lose(`trying ${key} failed`, client);
          } finally {
            this.trying.delete(key);
          }
        }
        if (!waitingLogged) logger.info({ lock: key }, 'Lock held by another instance; waiting to take over');
        waitingLogged = true;
        await sleep(Math.min(retryMs, Math.max(0, deadline - Date.now())), options.signal);
      }
      return null;
    } finally {
      if (holding === null) await this.leave();
    }
  }

  private hold(client: pg.Client, { key, logger }: AcquireLockOptions): HeldLock {
    const holding: Holding = { lost: new AbortController(), client };
    holding.lost.signal.addEventListener('abort', () =>
      logger.warn(
        { lock: key, reason: String(holding.lost.signal.reason) },
        'Advisory lock connection lost; the lock is gone',
      ),
    );
    this.held.set(key, holding);
    let released = false;
    return {
      key,
      lost: holding.lost.signal,
      release: async () => {
        if (released) return;
        released = true;
        await this.unlock(key, holding);
        await this.leave();
      },
    };
  }

  private async unlock(key: string, holding: Holding): Promise<void> {
    try {
      // A lock lost with its connection has nothing left to unlock, nor has a connection opened since.
      if (holding.lost.signal.aborted || holding.client !== this.client) return;
      await this.inTurn(holding.client, () => holding.client.query('SELECT pg_advisory_unlock(hashtext($1))', [key]));
    } catch {
      // Whether it was unlocked is unknown: only ending the session surely releases it (and the others, lost with it).
      this.lose(`unlocking ${key} failed`, holding.client);
    } finally {
      if (this.held.get(key) === holding) this.held.delete(key);
    }
  }

  private connection(): Promise<pg.Client> {
    if (this.client !== null) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    const probeTimeoutMs = this.settings.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS;
    const client = await connectForLocks(this.connectionString, SHARED_LOCKS_APPLICATION_NAME, probeTimeoutMs);
    client.on('error', (error: Error) => this.lose(error.message, client));
    client.on('end', () => this.lose('connection ended', client));
    this.client = client;
    this.probe = setInterval(() => {
      this.inTurn(client, () => client.query('SELECT 1')).catch((error: Error) => this.lose(error.message, client));
    }, this.settings.probeMs ?? DEFAULT_PROBE_MS);
    this.probe.unref();
    return client;
  }

  private inTurn<T>(client: pg.Client, statement: () => Promise<T>): Promise<T> {
    const next = (this.turns.get(client) ?? Promise.resolve()).catch(() => undefined).then(statement);
    this.turns.set(client, next);
    return next;
  }

  /** The connection is gone or no longer trusted: every lock on it is lost, and the next acquisition opens another. */
  private lose(reason: string, client: pg.Client | null = this.client): void {
    if (client === null || client !== this.client) return;
    this.client = null;
    this.stopProbing();
    for (const [key, holding] of this.held) {
      if (holding.client !== client) continue;
      this.held.delete(key);
      holding.lost.abort(reason);
    }
    destroyLockConnection(client);
  }

  private async leave(): Promise<void> {
    this.users -= 1;
    if (this.users > 0 || this.client === null) return;
    const client = this.client;
    this.client = null;
    this.stopProbing();
    await endQuietly(client);
  }

  private stopProbing(): void {
    if (this.probe !== null) clearInterval(this.probe);
    this.probe = null;
  }
}
