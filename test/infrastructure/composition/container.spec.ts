import assert from 'node:assert/strict';
import type { Clock } from '../../../application/ports/clock.js';
import { Container, ContainerSealedError } from '../../../infrastructure/composition/container.js';
import { token } from '../../../infrastructure/composition/token.js';
import { WORK_HANDLERS } from '../../../infrastructure/features/features.js';
import { WORK_KINDS } from '../../../application/processes/work-routing.js';

class Counter {
  count = 0;
}

describe('the typed container', () => {
  it('gives back what was registered under a token or a class, making a singleton once, on first use', () => {
    const container = Container.create();
    const clock = token<Clock>('Clock');
    const now = new Date('2026-01-01T00:00:00Z');
    let made = 0;
    container.value(clock, { now: () => now });
    container.singleton(Counter, () => {
      made += 1;
      return new Counter();
    });
    assert.equal(made, 0);
    assert.equal(container.resolve(clock).now(), now);
    assert.equal(container.resolve(Counter), container.resolve(Counter));
    assert.equal(made, 1);
    assert.throws(() => container.resolve(token<Clock>('Clock')), 'two tokens of one name are two keys');
  });

  it('refuses a registration or a replacement once sealed, and still resolves what it holds', () => {
    const container = Container.create();
    const clock = token<Clock>('Clock');
    const now = new Date('2026-01-01T00:00:00Z');
    container.value(clock, { now: () => now });
    container.seal();
    assert.throws(() => container.value(clock, { now: () => new Date() }), ContainerSealedError);
    assert.throws(
      () => container.value(token<Clock>('Other'), { now: () => new Date() }),
      /Other was registered after/,
    );
    assert.throws(() => container.singleton(Counter, () => new Counter()), /Counter was registered after/);
    assert.equal(container.resolve(clock).now(), now);
  });

  it('refuses, at compile time, a registration or a resolve of another type', () => {
    const container = Container.create();
    const clock = token<Clock>('Clock');
    // @ts-expect-error a Counter is not a Clock
    container.value(clock, new Counter());
    // @ts-expect-error a Clock is not a Counter
    container.singleton(Counter, () => ({ now: () => new Date() }));
    container.value(clock, { now: () => new Date() });
    // @ts-expect-error the token gives a Clock, not a Counter
    const wrong: Counter = container.resolve(clock);
    assert.equal(typeof wrong, 'object');
  });

  it('has a consumer for every kind of work', () => {
    assert.deepEqual(Object.keys(WORK_HANDLERS).sort(), [...WORK_KINDS].sort());
  });
});
