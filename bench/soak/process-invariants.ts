import type { MarkedProcess } from './leftover-processes.js';
import type { ServiceFleet } from './service-fleet.js';
import type { SoakHttp } from './soak-http.js';

/** Before the stop: every API process ready, no process died unasked, no request left without an answer. */
export async function checkProcessesRunning(fleet: ServiceFleet, http: SoakHttp): Promise<string[]> {
  const broken: string[] = [];
  for (const member of fleet.members()) {
    for (const exit of member.unexpectedExits)
      broken.push(
        `${member.name} exited unasked (code ${exit.code}, signal ${exit.signal}) at ${new Date(exit.at).toISOString()}`,
      );
    if (member.port === null) continue;
    const ready = await fetch(`http://127.0.0.1:${member.port}/readyz`, { signal: AbortSignal.timeout(10_000) }).then(
      (response) => response.status,
      () => null,
    );
    if (ready !== 200) broken.push(`${member.name}: /readyz answered ${ready} after the quiet period`);
  }
  for (const hung of http.unanswered)
    broken.push(
      `${hung.what} sent at ${new Date(hung.at).toISOString()} got no answer within the bound (${hung.error})`,
    );
  return broken;
}

/** After the stop: every process ended on SIGTERM in time, and none of the fleet's processes or their descendants is left. */
export function checkProcessesStopped(
  stopped: Array<{ name: string; exitedAfterMs: number | null }>,
  leftBehind: readonly MarkedProcess[],
): string[] {
  const broken = stopped
    .filter((entry) => entry.exitedAfterMs === null)
    .map((entry) => `${entry.name} did not exit on SIGTERM in time and was killed`);
  for (const left of leftBehind)
    broken.push(
      `process ${left.pid} of the fleet left running: ${left.commandLine.slice(0, 200) || '(no command line)'}`,
    );
  return broken;
}
