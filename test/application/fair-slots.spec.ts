import assert from 'node:assert/strict';
import { FairSlots, SlotsFullError } from '../../application/fair-slots.js';

/** Work that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('FairSlots', () => {
  it('gives a freed slot to the requester running the least, not to the oldest waiter', async () => {
    const slots = new FairSlots({ concurrency: 2, maxPerRequester: 10, maxWaiting: 10 });
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof gate>>();
    const submit = (requester: string, name: string) => {
      const g = gate();
      gates.set(name, g);
      return slots.run(requester, async () => {
        started.push(name);
        await g.opened;
      });
    };
    const all = [submit('a', 'a1'), submit('a', 'a2'), submit('a', 'a3'), submit('a', 'a4'), submit('b', 'b1')];
    await tick();
    assert.deepEqual(started, ['a1', 'a2']);
    gates.get('a1')?.open();
    await tick();
    assert.deepEqual(started, ['a1', 'a2', 'b1']);
    for (const g of gates.values()) g.open();
    await tick();
    gates.get('a3')?.open();
    gates.get('a4')?.open();
    await Promise.all(all);
    assert.deepEqual(started, ['a1', 'a2', 'b1', 'a3', 'a4']);
  });

  it('refuses at once beyond the per-requester bound and beyond the overall queue', async () => {
    const slots = new FairSlots({ concurrency: 1, maxPerRequester: 2, maxWaiting: 2 });
    const g = gate();
    const running = [slots.run('a', () => g.opened), slots.run('a', () => g.opened)];
    await assert.rejects(
      slots.run('a', async () => undefined),
      (error: SlotsFullError) => error.scope === 'requester',
    );
    const waiting = slots.run('b', () => g.opened);
    await assert.rejects(
      slots.run('c', async () => undefined),
      (error: SlotsFullError) => error.scope === 'everyone',
    );
    g.open();
    await Promise.all([...running, waiting]);
    // Everything finished: the bounds are free again.
    await slots.run('a', async () => undefined);
  });
});
