import { readdir } from 'node:fs/promises';
import { commandLineOf } from './process-tree.js';
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

/** After the stop: every process ended on SIGTERM in time, and left no yt-dlp or ffmpeg behind in the run's directories. */
export async function checkProcessesStopped(
  stopped: Array<{ name: string; exitedAfterMs: number | null }>,
  runDir: string,
): Promise<string[]> {
  const broken = stopped
    .filter((entry) => entry.exitedAfterMs === null)
    .map((entry) => `${entry.name} did not exit on SIGTERM in time and was killed`);
  for (const entry of await readdir('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    const commandLine = await commandLineOf(Number(entry));
    if (commandLine.includes(runDir) && !/postgres|nats-server/.test(commandLine))
      broken.push(`process ${entry} left running: ${commandLine.slice(0, 200)}`);
  }
  return broken;
}
