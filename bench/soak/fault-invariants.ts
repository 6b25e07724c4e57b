import type { InjectedFault } from './fault-injector.js';

/** A download submitted after a fault's end must complete within this; longer is a service that did not recover. */
export const RECOVERY_BOUND_MS = 120_000;

/**
 * Every scheduled fault was injected (a fault that threw, found nothing to
 * kill or only a restarting process did not test what the schedule says),
 * and after each a later download completed within the bound of its end.
 */
export function checkFaults(faults: readonly InjectedFault[]): string[] {
  const broken: string[] = [];
  faults.forEach((fault, index) => {
    const where = `fault ${index + 1} (${fault.kind}) at ${new Date(fault.at).toISOString()}`;
    if (fault.failure !== null) {
      broken.push(`${where} could not be injected: ${fault.failure}`);
      return;
    }
    const boundMs = fault.endedAt - fault.at + RECOVERY_BOUND_MS;
    if (fault.recoveredAfterMs === null)
      broken.push(`${where}: no download submitted after it completed within ${RECOVERY_BOUND_MS / 1000} s of its end`);
    else if (fault.recoveredAfterMs > boundMs)
      broken.push(`${where}: recovered only after ${(fault.recoveredAfterMs / 1000).toFixed(1)} s`);
  });
  return broken;
}
