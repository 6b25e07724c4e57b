import assert from 'node:assert/strict';
import { CallsUnderWay } from '../../../../infrastructure/event-store/postgres/calls-under-way.js';

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

describe('CallsUnderWay', () => {
  it('lets the calls under way finish before closing resolves, and refuses new ones meanwhile', async () => {
    const calls = new CallsUnderWay();
    const gate = deferred();
    const running = calls.run(() => gate.promise.then(() => 'done'));
    let closed = false;
    const closing = calls.close().then(() => {
      closed = true;
    });
    await assert.rejects(
      calls.run(async () => 'late'),
      /The event store is closed/,
    );
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(closed, false, 'closed while a call was under way');
    gate.resolve();
    assert.equal(await running, 'done');
    await closing;
    assert.equal(closed, true);
  });

  it('closes once a failed call has settled too', async () => {
    const calls = new CallsUnderWay();
    const failing = calls.run(async () => {
      throw new Error('lost connection');
    });
    await assert.rejects(failing, /lost connection/);
    await calls.close();
  });
});
