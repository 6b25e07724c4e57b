import { execFile } from 'node:child_process';

/** The image the container specs run, named by CONTAINER_IMAGE; unset, they are skipped (`.ci/run` builds and names it). */
export const CONTAINER_IMAGE = process.env.CONTAINER_IMAGE;

export interface PodmanResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `podman <args>`; never throws on a non-zero exit. */
export function podman(args: string[], timeoutMs = 120_000): Promise<PodmanResult> {
  return new Promise((resolve) => {
    execFile('podman', args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs `podman <args>` and gives its standard output, or fails naming the command and what it printed. */
export async function podmanOk(args: string[], timeoutMs?: number): Promise<string> {
  const result = await podman(args, timeoutMs);
  if (result.code !== 0)
    throw new Error(`podman ${args.join(' ')} exited ${result.code}: ${result.stderr.trim()}${result.stdout.trim()}`);
  return result.stdout;
}

/** `-e NAME=value` pairs for `podman run`. */
export function envArgs(env: Record<string, string>): string[] {
  return Object.entries(env).flatMap(([name, value]) => ['-e', `${name}=${value}`]);
}

/** A container's exit code once it has stopped. */
export async function exitCodeOf(name: string): Promise<number> {
  return Number((await podmanOk(['inspect', '--format', '{{.State.ExitCode}}', name])).trim());
}

/** `podman stop` with a stop timeout; gives how long the stop took, in milliseconds. */
export async function timedStop(name: string, timeoutSeconds: number): Promise<number> {
  const started = Date.now();
  await podmanOk(['stop', '--time', String(timeoutSeconds), name], (timeoutSeconds + 30) * 1000);
  return Date.now() - started;
}

/** The user of each process in the container, with its command line. */
export async function processUsers(name: string): Promise<Array<{ user: string; command: string }>> {
  const lines = (await podmanOk(['top', name, 'user', 'args'])).trim().split('\n').slice(1);
  return lines.map((line) => {
    const [user, ...command] = line.trim().split(/\s+/);
    return { user, command: command.join(' ') };
  });
}

/** Removes containers and volumes, whether or not they exist. */
export async function removeAll(containers: string[], volumes: string[] = []): Promise<void> {
  if (containers.length > 0) await podman(['rm', '--force', '--time', '0', ...containers]);
  if (volumes.length > 0) await podman(['volume', 'rm', '--force', ...volumes]);
}

/** The last lines a container wrote, for a failure's message. */
export async function logsOf(name: string, lines = 40): Promise<string> {
  const result = await podman(['logs', '--tail', String(lines), name]);
  return `${result.stdout}${result.stderr}`;
}
