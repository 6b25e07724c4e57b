import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { childrenOf } from './soak/process-tree.js';

/**
 * Runs a program to its end; its wall time in milliseconds, its stdout, and a failure when it exits non-zero.
 * `onStdout` sees each piece of its output as it arrives, with the time (`Date.now()`).
 */
export function timedProcess(
  command: string,
  args: readonly string[],
  env?: NodeJS.ProcessEnv,
  onStdout?: (chunk: string, at: number) => void,
): Promise<{ ms: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      onStdout?.(chunk, Date.now());
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-4000)));
    child.once('error', reject);
    child.once('close', (code) => {
      const ms = performance.now() - started;
      if (code === 0) resolve({ ms, stdout });
      else reject(new Error(`${command} exited with ${code}: ${stderr}`));
    });
  });
}

/**
 * One HTTP request made by curl (a separate process); the time is curl's
 * own, from before connecting to the last byte, so curl's start-up is not
 * counted. A status other than 2xx fails.
 */
export async function curlRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ ms: number; body: string }> {
  const args = ['-sS', '-o', '-', '-w', '\n%{http_code} %{time_total}', '-X', options.method ?? 'GET'];
  for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
  if (options.body !== undefined) args.push('--data-binary', options.body);
  args.push(url);
  const { stdout } = await timedProcess('curl', args);
  const cut = stdout.lastIndexOf('\n');
  const [status, seconds] = stdout.slice(cut + 1).split(' ');
  const body = stdout.slice(0, cut);
  if (!status.startsWith('2')) throw new Error(`${options.method ?? 'GET'} ${url} answered ${status}: ${body}`);
  return { ms: Number(seconds) * 1000, body };
}

export function percentile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

/** CPU seconds of a process and of its children it has waited for (yt-dlp, ffmpeg), from /proc. */
export function cpuSeconds(pid: number | 'self'): number {
  return statTicks(pid).reduce((sum, ticks) => sum + ticks, 0) / 100;
}

/** CPU seconds of a process alone, without its children's. */
export function ownCpuSeconds(pid: number): number {
  const [utime, stime] = statTicks(pid);
  return (utime + stime) / 100;
}

/** utime, stime, cutime, cstime: fields 14-17 of /proc/<pid>/stat, 11-14 after the command name. */
function statTicks(pid: number | 'self'): number[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat
    .slice(stat.lastIndexOf(') ') + 2)
    .split(' ')
    .slice(11, 15)
    .map(Number);
}

/**
 * CPU seconds of a process and every descendant: those still running (warm
 * helpers, the fork server) read one by one, those already waited for
 * through their parents. A parent is read before its children, so a child
 * reaped in between is lost rather than counted twice; one that exits
 * between the readings is lost (0 s).
 */
export async function processTreeCpuSeconds(pid: number): Promise<number> {
  let seconds = 0;
  try {
    seconds = cpuSeconds(pid);
  } catch {
    return 0;
  }
  for (const child of await childrenOf(pid)) seconds += await processTreeCpuSeconds(child);
  return seconds;
}
