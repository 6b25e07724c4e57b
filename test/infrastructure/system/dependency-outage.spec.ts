import assert from 'node:assert/strict';
import { isDependencyOutage } from '../../../infrastructure/system/dependency-outage.js';

const withCode = (code: string) => Object.assign(new Error(`failed: ${code}`), { code });

describe('telling a passing outage of PostgreSQL or NATS from other errors', () => {
  it('knows refused and dropped connections, servers going away or starting, and an exhausted pool', () => {
    for (const code of ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EAI_AGAIN', 'CONNECTION_REFUSED'])
      assert.ok(isDependencyOutage(withCode(code)), code);
    for (const code of ['57P01', '57P02', '57P03', '08006', '08001', '53300'])
      assert.ok(isDependencyOutage(withCode(code)), code);
    assert.ok(isDependencyOutage(new Error('Connection terminated unexpectedly')));
    assert.ok(
      isDependencyOutage(
        Object.assign(new Error('Knex: Timeout acquiring a connection'), { name: 'KnexTimeoutError' }),
      ),
    );
  });

  it('looks through causes and aggregated errors', () => {
    assert.ok(isDependencyOutage(new Error('append failed', { cause: withCode('ECONNREFUSED') })));
    assert.ok(isDependencyOutage(new AggregateError([new Error('x'), withCode('ECONNREFUSED')])));
  });

  it('takes what waiting cannot mend for what it is', () => {
    for (const code of ['23505', '42P01', '28000', '3D000', '40001'])
      assert.ok(!isDependencyOutage(withCode(code)), code);
    assert.ok(!isDependencyOutage(new Error('a defect')));
    assert.ok(!isDependencyOutage(null));
    assert.ok(!isDependencyOutage('ECONNREFUSED'));
  });
});
