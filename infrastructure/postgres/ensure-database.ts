import pg from 'pg';

/** duplicate_database, and the unique violation a CREATE DATABASE racing another one commits instead. */
const ALREADY_CREATED = new Set(['42P04', '23505']);

/**
 * Creates the configured database when the server lacks it, so a fresh machine starts with one command.
 * Processes starting together (several roles of one `docker compose up`) take turns under an advisory lock
 * in the maintenance database, and a creation another client won anyway counts as done.
 */
export async function ensureDatabase(connectionString: string): Promise<void> {
  const url = new URL(connectionString);
  const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (name === '' || name === 'postgres') return;
  if (await databaseAnswers(connectionString)) return;
  url.pathname = '/postgres';
  const admin = new pg.Client({ connectionString: url.toString() });
  await admin.connect();
  try {
    // A session lock, released when this connection ends: CREATE DATABASE cannot run inside a transaction.
    await admin.query(`SELECT pg_advisory_lock(hashtext('vds-create-database:' || $1))`, [name]);
    const existing = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (existing.rowCount === 0) await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  } catch (error) {
    if (!ALREADY_CREATED.has((error as { code?: string }).code ?? '')) throw error;
  } finally {
    await admin.end();
  }
}

async function databaseAnswers(connectionString: string): Promise<boolean> {
  const probe = new pg.Client({ connectionString });
  try {
    await probe.connect();
    return true;
  } catch (error) {
    if ((error as { code?: string }).code !== '3D000') throw error;
    return false;
  } finally {
    await probe.end().catch(() => undefined);
  }
}
