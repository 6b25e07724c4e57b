import type { Loop } from '../composition/feature-module.js';
import type { Stoppables } from './stoppables.js';

/** Starts each loop in turn, adding it to `parts` once started (with `last`, to be stopped after the other parts). */
export async function startLoops(
  loops: readonly Loop[],
  parts: Stoppables,
  name: string,
  order: 'in turn' | 'last' = 'in turn',
): Promise<void> {
  for (const loop of loops) {
    await loop.start();
    const stop = async () => loop.stop();
    if (order === 'last') parts.addLast(name, stop);
    else parts.add(name, stop);
  }
}
