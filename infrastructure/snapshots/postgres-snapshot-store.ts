import type { Knex } from 'knex';
import type { SnapshotStore, StreamSnapshot } from '../../application/ports/snapshot-store.js';

const SNAPSHOT_TABLE = 'stream_snapshots';

/**
 * Snapshots in the read models' database, which every mode has (with
 * EventStoreDB too). One row per stream, replaced only by a later revision, so
 * two processes folding the same account at once cannot move it backwards.
 */
export class PostgresSnapshotStore implements SnapshotStore {
  constructor(private readonly db: Knex) {}

  async load(streamName: string): Promise<StreamSnapshot | null> {
    const row = await this.db(SNAPSHOT_TABLE)
      .where('stream_name', streamName)
      .first<{ revision: string | number; last_event_id: string; version: number; state: unknown } | undefined>(
        'revision',
        'last_event_id',
        'version',
        'state',
      );
    if (row === undefined) return null;
    return {
      streamName,
      revision: Number(row.revision),
      lastEventId: row.last_event_id,
      version: row.version,
      state: row.state,
    };
  }

  async save(snapshot: StreamSnapshot): Promise<void> {
    await this.db.raw(
      `INSERT INTO ${SNAPSHOT_TABLE} (stream_name, revision, last_event_id, version, state, taken_at)
       VALUES (?, ?, ?, ?, ?::jsonb, now())
       ON CONFLICT (stream_name) DO UPDATE
         SET revision = excluded.revision, last_event_id = excluded.last_event_id, version = excluded.version,
             state = excluded.state, taken_at = excluded.taken_at
         WHERE ${SNAPSHOT_TABLE}.revision < excluded.revision OR ${SNAPSHOT_TABLE}.version <> excluded.version`,
      [snapshot.streamName, snapshot.revision, snapshot.lastEventId, snapshot.version, JSON.stringify(snapshot.state)],
    );
  }
}
