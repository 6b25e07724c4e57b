import 'reflect-metadata';
import { randomUUID } from 'node:crypto';
import { PostgresEventStore } from '../infrastructure/event-store/postgres/postgres-event-store.js';

/**
 * The projection-lag bench's load, run as its own process:
 * `node append-load.js <databaseUrl> <accountId> <appends per second> <seconds>`.
 * Appends new jobs' DownloadRequested on a fixed schedule, whatever the
 * previous appends are doing, and prints `appended <jobId> <epoch ms>` as each
 * returns, then `done <appends per second achieved> <failures> <first failure>`.
 */
async function main(): Promise<void> {
  const [databaseUrl, accountId, rateText, secondsText] = process.argv.slice(2);
  const rate = Number(rateText);
  const total = rate * Number(secondsText);
  const store = new PostgresEventStore({ connectionString: databaseUrl, poolSize: 32 });
  const appends: Array<Promise<void>> = [];
  let failures = 0;
  let firstFailure = '';
  const started = performance.now();
  for (let i = 0; i < total; i += 1) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    const jobId = randomUUID();
    const data = {
      jobId,
      accountId,
      url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      format: 'audio',
      startTime: null,
      endTime: null,
      language: null,
      webhookUrl: null,
      title: 't',
      duration: 6,
      maxFileSizeBytes: 1e9,
      requestedAt: new Date().toISOString(),
    };
    appends.push(
      store
        .appendToStream(`download-${jobId}`, [{ id: randomUUID(), type: 'DownloadRequested', data }], {
          expectedRevision: 'no_stream',
        })
        .then(
          () =>
            void process.stdout.write(`appended ${jobId} ${(performance.timeOrigin + performance.now()).toFixed(3)}\n`),
          (error: unknown) => {
            failures += 1;
            firstFailure ||= error instanceof Error ? error.message : String(error);
          },
        ),
    );
  }
  await Promise.all(appends);
  const achieved = (total - failures) / ((performance.now() - started) / 1000);
  process.stdout.write(`done ${achieved.toFixed(1)} ${failures} ${firstFailure}\n`);
  await store.close();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
