import type pg from 'pg';
import type { Logger } from '../../application/ports/logger.js';
import { sleep } from '../system/sleep.js';
import { connectForLocks, destroyLockConnection, endQuietly, tryAdvisoryLock } from './lock-connection.js';

export interface HeldLock {
  readonly key: string;
  /** Aborts when the lock's connection is gone, and with it the lock. */
  readonly lost: AbortSignal;
  release(): Promise<void>;
}

export interface AcquireLockOptions {
  connectionString: string;
  /** Hashed with hashtext(); the same key always maps to the same lock. */
  key: string;
  logger: Logger;
  /** Pause between attempts while another session holds the lock. */
  retryMs?: number;
  /**
   * How often the held connection is probed, so a silently dropped one is noticed. Default 10 s: with the probe's
   * timeout, the loss is noticed within 15 s, before the server's keep-alives release the lock to another instance.
   */
  probeMs?: number;
  /** A probe unanswered for this long counts as a lost connection. Default 5 s. */
  probeTimeoutMs?: number;
  /** Give up (resolve null) after this long; waits indefinitely when absent. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** How a processor waits for the lock that makes it the active instance. */
export type AcquireLock = (options: AcquireLockOptions) => Promise<HeldLock | null>;

/**
 * Waits for a session-level advisory lock taken on a connection of its own (see connectForLocks for how it is watched).
 * The lock lives exactly as long as that connection: when the holding
 * process dies, Postgres releases it and a waiting instance takes over.
 * A pooled connection would not do, since the pool may close or share it.
 * Resolves null when `signal` aborts or `timeoutMs` passes first.
 */
export async function acquireSessionLock(options: AcquireLockOptions): Promise<HeldLock | null> {
  const { key, logger } = options;
  const retryMs = options.retryMs ?? 500;
  const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
  let client: pg.Client | null = null;
  let waitingLogged = false;
  try {
    while (!options.signal?.aborted && Date.now() <= deadline) {
      try {
        client ??= await connectForLocks(
          options.connectionString,
          `lock ${key}`,
          options.probeTimeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS,
        );
        if (await tryAdvisoryLock(client, key)) {
          const held = holdLock(client, key, logger, options.probeMs ?? DEFAULT_PROBE_MS);
          client = null;
          return held;
        }
        if (!waitingLogged) logger.info({ lock: key }, 'Lock held by another instance; waiting to take over');
        waitingLogged = true;
      } catch (error) {
        logger.warn({ lock: key, err: error }, 'Could not try the advisory lock; retrying');
        await endQuietly(client);
        client = null;
      }
      await sleep(Math.min(retryMs, Math.max(0, deadline - Date.now())), options.signal);
    }
    return null;
  } finally {
    await endQuietly(client);
  }
}

export const DEFAULT_PROBE_MS = 10_000;
export const DEFAULT_PROBE_TIMEOUT_MS = 5_000;

function holdLock(client: pg.Client, key: string, logger: Logger, probeMs: number): HeldLock {
  const lost = new AbortController();
  let released = false;
  const markLost = (reason: string) => {
    if (released || lost.signal.aborted) return;
    logger.warn({ lock: key, reason }, 'Advisory lock connection lost; the lock is gone');
    lost.abort(new Error(`Lock ${key} lost: ${reason}`));
  };
  client.on('error', (error: Error) => markLost(error.message));
  client.on('end', () => markLost('connection ended'));
  const probe = setInterval(() => {
    client.query('SELECT 1').catch((error: Error) => {
      markLost(error.message);
      // A connection that stopped answering is not waited for: the lock is treated as gone now.
      destroyLockConnection(client);
    });
  }, probeMs);
  probe.unref();
  return {
    key,
    lost: lost.signal,
    async release() {
      if (released) return;
      released = true;
      clearInterval(probe);
      // Closing the session releases the lock; no unlock call can then fail halfway.
      await endQuietly(client);
    },
  };
}
