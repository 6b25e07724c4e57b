import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { TEST_RUN_TAG_VARIABLE, dropRunDatabases } from './postgres.js';

/**
 * `npm test`: every spec file, in two mocha runs. Most files run side by side
 * in worker processes: each brings its own database, NATS stream, port and
 * directories, and mostly waits (on yt-dlp, on the database, on polls), so
 * several fit on two cores. The files in SERIAL run afterwards, one at a
 * time, because they load the machine on purpose, count requests within
 * one-second windows, or hold a transaction open on purpose, which holds back
 * the event store's global readers in every database of the server (and so
 * every neighbour's projections). Both runs always run;
 * the exit code is non-zero if either failed. Arguments are handed to both
 * runs (e.g. `--reporter build/test/support/file-times-reporter.js`);
 * TEST_JOBS sets the number of worker processes (default 4). The specs' throwaway
 * databases are dropped together at the end (see TEST_RUN_TAG_VARIABLE).
 */
const SERIAL = [
  'end-to-end/concurrent-submissions.spec.js',
  'api/rate-limits.spec.js',
  'api/stall-visibility.spec.js',
  'infrastructure/event-store/postgres/postgres-event-store/global-order.spec.js',
  'infrastructure/rate-limits/postgres-window-counter.spec.js',
  'infrastructure/processing/projection-runner/catch-up-wait.spec.js',
];

/** The longest files start first, so the run does not end waiting on one of them alone. */
const SLOWEST = [
  'end-to-end/webhook-delivery.spec.js',
  'end-to-end/web-console.spec.js',
  'infrastructure/work-queue/in-process-work-queue.spec.js',
  'end-to-end/lookups.spec.js',
  'end-to-end/read-your-writes.spec.js',
  'infrastructure/extractor/yt-dlp-extractor.spec.js',
  'api/download-events.spec.js',
  'end-to-end/embedded-process.spec.js',
  'end-to-end/download-job.spec.js',
  'end-to-end/file-retention.spec.js',
  'infrastructure/roles/worker-role.spec.js',
];

const SPEC_ROOT = 'build/test';

async function main(): Promise<void> {
  const files = specFiles();
  // A renamed or removed file must not leave its listing silently doing nothing.
  const unknown = [...SERIAL, ...SLOWEST].filter((file) => !files.includes(file));
  if (unknown.length > 0) throw new Error(`Listed spec files that do not exist: ${unknown.join(', ')}`);
  const serial = files.filter((file) => SERIAL.includes(file));
  const parallel = files.filter((file) => !SERIAL.includes(file)).sort((a, b) => rank(a) - rank(b));
  const extra = process.argv.slice(2);
  // Four files side by side stay under PostgreSQL's default 100 connections (README, "PostgreSQL connections").
  const jobs = process.env.TEST_JOBS ?? '4';
  // The run's throwaway databases are dropped once it ends (see TEST_RUN_TAG_VARIABLE), whatever its outcome.
  const tag = randomBytes(3).toString('hex');
  process.env[TEST_RUN_TAG_VARIABLE] = tag;
  try {
    const parallelCode = await mocha(['--parallel', '--jobs', jobs, ...extra], parallel);
    const serialCode = await mocha(extra, serial);
    process.exitCode = parallelCode === 0 && serialCode === 0 ? 0 : 1;
  } finally {
    const dropped = await dropRunDatabases(tag);
    console.log(`  Dropped the run's ${dropped} test databases.`);
  }
}

/** Spec files relative to SPEC_ROOT, in a stable order. */
function specFiles(): string[] {
  return readdirSync(SPEC_ROOT, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.spec.js'))
    .map((file) => file.split(path.sep).join('/'))
    .sort();
}

function rank(file: string): number {
  const index = SLOWEST.indexOf(file);
  return index === -1 ? SLOWEST.length : index;
}

/** Runs mocha with .mocharc.json's settings on `files`, resolving to its exit code. */
function mocha(options: string[], files: string[]): Promise<number> {
  if (files.length === 0) return Promise.resolve(0);
  const bin = createRequire(__filename).resolve('mocha/bin/mocha.js');
  const args = [bin, '--no-config', ...rcSettings(), ...options, ...files.map((file) => `${SPEC_ROOT}/${file}`)];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
  });
}

/** .mocharc.json's require, timeout and exit, which a plain `mocha` run uses too; its spec is replaced by the files given. */
function rcSettings(): string[] {
  const rc = existsSync('.mocharc.json')
    ? (JSON.parse(readFileSync('.mocharc.json', 'utf8')) as { require?: string[]; timeout?: number; exit?: boolean })
    : {};
  return [
    ...(rc.require ?? []).flatMap((file) => ['--require', file]),
    ...(rc.timeout === undefined ? [] : ['--timeout', String(rc.timeout)]),
    ...(rc.exit === true ? ['--exit'] : []),
  ];
}

void main();
