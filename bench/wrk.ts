import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  threads: number;
  durationSeconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  requests: number;
}

/** Thrown when the endpoint under load did not answer 2xx every time: its figures would measure the wrong thing. */
export class LoadAnswerError extends Error {
  constructor(url: string, problem: string) {
    super(`${url}: ${problem}; its figures would be meaningless, so no ratio is printed`);
    this.name = 'LoadAnswerError';
  }
}

/**
 * wrk's own summary as JSON (microseconds), printed by its `done` hook, so no
 * per-request Lua runs and the counts are wrk's own. `status` counts answers
 * outside 2xx and 3xx; 3xx is refused separately by the pre-flight request.
 */
const SUMMARY_SCRIPT = `
done = function(summary, latency, requests)
  io.write(string.format('WRK_SUMMARY {"requests":%d,"durationUs":%d,"p50":%d,"p99":%d,"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d}\\n',
    summary.requests, summary.duration, latency:percentile(50), latency:percentile(99),
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status, summary.errors.timeout))
end
`;

/**
 * Loads `url` with wrk, a separate process, so the client never competes with
 * the server for its event loop. A pre-flight request must answer 2xx, and
 * wrk must report neither non-2xx/3xx answers nor socket errors.
 */
export async function loadWithWrk(options: LoadOptions): Promise<LoadResult> {
  const preflight = await fetch(options.url, { headers: options.headers });
  await preflight.arrayBuffer();
  if (preflight.status < 200 || preflight.status > 299)
    throw new LoadAnswerError(options.url, `answered ${preflight.status} before the load`);
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-wrk-'));
  try {
    const script = path.join(dir, 'summary.lua');
    await writeFile(script, SUMMARY_SCRIPT);
    const args = [
      '-t',
      String(options.threads),
      '-c',
      String(options.connections),
      '-d',
      `${options.durationSeconds}s`,
      '--timeout',
      '5s',
      '-s',
      script,
    ];
    for (const [name, value] of Object.entries(options.headers ?? {})) args.push('-H', `${name}: ${value}`);
    args.push(options.url);
    let stdout: string;
    try {
      ({ stdout } = await run('wrk', args, { maxBuffer: 1024 * 1024 }));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT')
        throw new Error('wrk is not installed: run `npm run setup` or `apt-get install -y wrk`');
      throw error;
    }
    const line = stdout.split('\n').find((candidate) => candidate.startsWith('WRK_SUMMARY '));
    if (line === undefined) throw new Error(`wrk printed no summary:\n${stdout}`);
    const summary = JSON.parse(line.slice('WRK_SUMMARY '.length)) as Record<
      'requests' | 'durationUs' | 'p50' | 'p99' | 'connect' | 'read' | 'write' | 'status' | 'timeout',
      number
    >;
    if (summary.status > 0)
      throw new LoadAnswerError(options.url, `${summary.status} of ${summary.requests} answers were not 2xx`);
    const socketErrors = summary.connect + summary.read + summary.write + summary.timeout;
    if (socketErrors > 0) {
      throw new LoadAnswerError(
        options.url,
        `socket errors: connect ${summary.connect}, read ${summary.read}, write ${summary.write}, timeout ${summary.timeout}`,
      );
    }
    if (summary.requests === 0) throw new LoadAnswerError(options.url, 'no request completed');
    return {
      requestsPerSecond: summary.requests / (summary.durationUs / 1e6),
      p50: summary.p50 / 1000,
      p99: summary.p99 / 1000,
      requests: summary.requests,
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
