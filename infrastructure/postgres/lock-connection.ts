import pg from 'pg';

const KEEP_ALIVE_INITIAL_DELAY_MS = 10_000;

/**
 * A connection that holds session-level advisory locks. Both ends watch it:
 * every statement times out after `probeTimeoutMs` (rather than wait for TCP
 * to give up, which takes about 15 minutes), and the server's keep-alives end
 * a session whose client vanished, releasing its locks, within about 25 s.
 * Until then the locks stay with the vanished session, so a second instance
 * cannot take one while the first still believes it holds it.
 */
export async function connectForLocks(
  connectionString: string,
  applicationName: string,
  probeTimeoutMs: number,
): Promise<pg.Client> {
  const client = new pg.Client({
    connectionString,
    application_name: applicationName.slice(0, 63),
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEP_ALIVE_INITIAL_DELAY_MS,
    query_timeout: probeTimeoutMs,
    options: '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=3',
  });
  // Without a listener an unexpected disconnect would crash the process.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

/** Tries the lock once on `client`: true when this session now holds it. */
export async function tryAdvisoryLock(client: pg.Client, key: string): Promise<boolean> {
  const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [
    key,
  ]);
  return rows[0]?.locked === true;
}

/** Cuts a connection that stopped answering without waiting for it: its session, and its locks, are treated as gone. */
export function destroyLockConnection(client: pg.Client): void {
  (client as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
}

export async function endQuietly(client: pg.Client | null): Promise<void> {
  if (client === null) return;
  try {
    await client.end();
  } catch {
    // Already closed or broken: the session, and any lock it held, is gone either way.
  }
}
