import { readFileSync } from 'node:fs';
import type pg from 'pg';

/**
 * Whether the kernel runs the keep-alive timer of this machine's TCP socket bound to `localPort` (its
 * `/proc/net/tcp` row shows timer 2 while SO_KEEPALIVE is on and the socket is idle, so a caller waits for it: just
 * after traffic another timer may show); undefined when no socket is.
 */
export function keepAliveArmed(localPort: number): boolean | undefined {
  const port = localPort.toString(16).toUpperCase().padStart(4, '0');
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    for (const row of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const fields = row.trim().split(/\s+/);
      if (fields[1]?.endsWith(`:${port}`)) return fields[5]?.startsWith('02:');
    }
  }
  return undefined;
}

/** The client ports of the connections LISTENing on `channel` in `database`, as PostgreSQL sees them. */
export async function listeningPorts(admin: pg.Client, database: string, channel: string): Promise<number[]> {
  const { rows } = await admin.query(
    'SELECT client_port FROM pg_stat_activity WHERE datname = $1 AND query = $2 AND client_port IS NOT NULL',
    [database, `LISTEN "${channel}"`],
  );
  return rows.map((row: { client_port: number }) => row.client_port);
}
