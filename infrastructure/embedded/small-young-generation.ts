import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's young generation at the size it starts with instead of letting
 * it grow to 32 MB (two semi-spaces of 16 MB) during start-up, which it keeps
 * resident until an idle-time collection happens to shrink it, or for good.
 * Objects then move to the old generation sooner, at a small cost in
 * collections, which one embedded service's load never notices. Set before
 * the modules load: the size a collection has grown to stays.
 */
export function keepYoungGenerationSmall(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
}
