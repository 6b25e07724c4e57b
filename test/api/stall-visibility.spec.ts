import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import pg from 'pg';
import type { EventStore } from '../../application/ports/event-store.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { SealingEventStore } from '../../infrastructure/event-store/sealing/sealing-event-store.js';
import { PostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.js';
import { type TestService, startTestService } from '../support/test-service.js';

function gauge(metrics: string, name: string): number {
  const line = metrics.split('\n').find((candidate) => candidate.startsWith(name));
  assert.ok(line !== undefined, `${name} is exported`);
  return Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('stalls of the event store are visible', function () {
  this.timeout(60_000);
  let service: TestService;

  before(async () => {
    service = await startTestService({
      label: 'stalls',
      roles: ['api', 'projector'],
      env: { READY_MAX_LAG_MS: '1500' },
    });
  });
  after(async () => service?.stop());

  it('exports the horizon age and processor lag, and /readyz answers 503 with the lag while a transaction holds the projections back', async () => {
    await service.createAccount();
    const ready = await fetch(`${service.url}/readyz`);
    assert.equal(ready.status, 200);

    const holder = new pg.Client({ connectionString: (service.database ?? assert.fail('runs in server mode')).url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('SELECT pg_current_xact_id()');
      const store = service.service.container.resolve<EventStore>(TOKENS.eventStore);
      await store.appendToStream(`account-${randomUUID()}`, [{ id: randomUUID(), type: 'AccountTouched', data: {} }], {
        expectedRevision: 'no_stream',
      });
      // Both figures grow for as long as the transaction stays open, whatever the machine's speed.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const metrics = await (await fetch(`${service.url}/metrics`)).text();
        const [age, lag] = [
          gauge(metrics, 'vds_event_horizon_age_seconds'),
          gauge(metrics, 'vds_processor_lag_seconds{processor="accounts"}'),
        ];
        if (age >= 2 && lag >= 2) break;
        assert.ok(Date.now() < deadline, `horizon age ${age} s, accounts lag ${lag} s`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const stalled = await fetch(`${service.url}/readyz`);
      assert.equal(stalled.status, 503);
      const body = (await stalled.json()) as {
        checks: Record<string, string>;
        processorLagSeconds: Record<string, number>;
      };
      assert.equal(body.checks.processorLag, 'unavailable');
      assert.ok(body.processorLagSeconds.accounts >= 2);
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await holder.end();
    }
    await service.settle();
    assert.equal((await fetch(`${service.url}/readyz`)).status, 200);
  });

  it('ends a transaction the service leaves idle: every connection it opens has an idle-in-transaction timeout', async () => {
    const db = service.service.container.resolve<Knex>(TOKENS.database);
    const { rows } = await db.raw<{ rows: Array<{ idle_in_transaction_session_timeout: string }> }>(
      'SHOW idle_in_transaction_session_timeout',
    );
    assert.equal(rows[0].idle_in_transaction_session_timeout, '10s');
    const sealing = service.service.container.resolve(TOKENS.eventStore);
    const store = sealing instanceof SealingEventStore ? sealing.inner : sealing;
    assert.ok(store instanceof PostgresEventStore);
    const pool = (store as unknown as { pool: pg.Pool }).pool;
    const shown = await pool.query<{ idle_in_transaction_session_timeout: string }>(
      'SHOW idle_in_transaction_session_timeout',
    );
    assert.equal(shown.rows[0].idle_in_transaction_session_timeout, '10s');
  });
});
