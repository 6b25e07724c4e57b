import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { Knex } from 'knex';
import type { Logger } from '../../../application/ports/logger.js';
import type { ProcessHeartbeat, ProcessHeartbeats } from '../../../application/ports/operations-status.js';
import type { Loop } from '../../composition/feature-module.js';

const BEAT_INTERVAL_MS = 5_000;

/** Each role of each process beats every 5 s into `process_heartbeats`; a stopped one removes its row. */
export function heartbeatLoop(db: Knex, role: string, logger: Logger): Loop {
  const processId = randomUUID();
  const startedAt = new Date();
  let timer: NodeJS.Timeout | undefined;
  const beat = async () => {
    try {
      const row = { process_id: processId, role, host: hostname(), pid: process.pid, started_at: startedAt };
      await db('process_heartbeats')
        .insert({ ...row, last_beat_at: db.fn.now() })
        .onConflict('process_id')
        .merge({ last_beat_at: db.fn.now() });
    } catch (error) {
      // The next beat tries again; an outage shows in /readyz's own checks.
      logger.warn({ err: error, role }, 'Heartbeat not recorded');
    }
  };
  return {
    start: () => {
      void beat();
      timer = setInterval(() => void beat(), BEAT_INTERVAL_MS);
      timer.unref();
    },
    stop: async () => {
      clearInterval(timer);
      await db('process_heartbeats')
        .where('process_id', processId)
        .delete()
        .catch(() => undefined);
    },
  };
}

interface HeartbeatRow {
  process_id: string;
  role: string;
  host: string;
  pid: number;
  started_at: Date;
  last_beat_at: Date;
}

export class PostgresProcessHeartbeats implements ProcessHeartbeats {
  constructor(private readonly db: Knex) {}

  async recent(withinSeconds: number): Promise<ProcessHeartbeat[]> {
    const rows = await this.db<HeartbeatRow>('process_heartbeats')
      .whereRaw(`last_beat_at > now() - make_interval(secs => ?)`, [withinSeconds])
      .orderBy('role')
      .orderBy('started_at');
    return rows.map((row) => ({
      processId: row.process_id,
      role: row.role,
      host: row.host,
      pid: row.pid,
      startedAt: new Date(row.started_at).toISOString(),
      lastBeatAt: new Date(row.last_beat_at).toISOString(),
    }));
  }
}
