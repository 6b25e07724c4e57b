import pg from 'pg';
import { inodeOfLocalPort, socketInodesOf } from './process-tree.js';
import type { FleetMember } from './service-fleet.js';

/**
 * The projector process that holds the projections' advisory locks: the
 * database names the client ports of the sessions holding advisory locks,
 * and /proc says which process owns the socket on each port.
 */
export async function findProjectorLeader(databaseUrl: string, projectors: FleetMember[]): Promise<FleetMember | null> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  let ports: number[];
  try {
    const { rows } = await client.query<{ client_port: number }>(
      `SELECT DISTINCT a.client_port FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' AND l.granted AND a.client_port IS NOT NULL`,
    );
    ports = rows.map((row) => row.client_port);
  } finally {
    await client.end();
  }
  const inodes = new Set(
    (await Promise.all(ports.map((port) => inodeOfLocalPort(port)))).filter((inode): inode is string => inode !== null),
  );
  for (const projector of projectors) {
    if (projector.pid === null) continue;
    const owned = await socketInodesOf(projector.pid);
    if ([...owned].some((inode) => inodes.has(inode))) return projector;
  }
  return null;
}
