import type { Loop } from '../composition/feature-module.js';
import type { Stoppables } from './stoppables.js';

/** Starts each loop in turn, adding it to `parts` once started. */
export async function startLoops(loops: readonly Loop[], parts: Stoppables, name: string): Promise<void> {
  for (const loop of loops) {
    await loop.start();
    parts.add(name, async () => loop.stop());
  }
}
