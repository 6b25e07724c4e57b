import type { FaultClass, FaultInjector, InjectedFault } from './fault-injector.js';
import type { SeededRandom } from './seeded-random.js';

/**
 * Faults on a seeded schedule: every class once in a shuffled round, then
 * another round, spaced so that a short run still sees each class. After
 * each fault, `recovery` measures how long the service took to complete work
 * again; it runs beside the next faults.
 */
export async function runFaultSchedule(
  injector: FaultInjector,
  classes: readonly FaultClass[],
  random: SeededRandom,
  window: { from: number; until: number },
  recovery: (fault: Omit<InjectedFault, 'recoveredAfterMs'>) => Promise<number | null>,
): Promise<InjectedFault[]> {
  const injected: InjectedFault[] = [];
  const measuring: Array<Promise<void>> = [];
  // The gaps between faults, so that every class fits in a short run: a few seconds each in two minutes, 12 to 24 s in longer runs.
  const spacingMs = Math.min(40_000, Math.max(5_000, (window.until - window.from - 20_000) / classes.length));
  let round = random.shuffle(classes);
  await sleepUntil(window.from + 10_000);
  while (Date.now() < window.until) {
    if (round.length === 0) round = random.shuffle(classes);
    const kind = round.shift() as FaultClass;
    const fault = await injector.inject(kind);
    const entry: InjectedFault = { ...fault, recoveredAfterMs: null };
    injected.push(entry);
    console.log(`soak: fault ${injected.length} at +${Math.round((fault.at - window.from) / 1000)} s: ${fault.detail}`);
    if (fault.failure === null)
      measuring.push(
        recovery(fault).then((ms) => {
          entry.recoveredAfterMs = ms;
        }),
      );
    await sleepUntil(
      Math.min(window.until, Date.now() + random.between(Math.round(spacingMs * 0.3), Math.round(spacingMs * 0.6))),
    );
  }
  await Promise.all(measuring);
  return injected;
}

async function sleepUntil(at: number): Promise<void> {
  const ms = at - Date.now();
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}
