import assert from 'node:assert/strict';
import { access as exists, chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ExclusiveGate } from '../../../../infrastructure/extractor/exclusive-gate.js';
import { PlatformAccess, type PlatformAccessSettings } from '../../../../infrastructure/extractor/platform-access.js';
import { YtDlpExtractor } from '../../../../infrastructure/extractor/yt-dlp-extractor.js';
import { YtDlpSelfUpdate } from '../../../../infrastructure/extractor/yt-dlp-self-update.js';
import { createLogger } from '../../../../infrastructure/observability/create-logger.js';

const URL = 'http://127.0.0.1:1/watch?v=a';
const BOT_CHECK = "ERROR: Sign in to confirm you're not a bot";

const settings = (overrides: Partial<PlatformAccessSettings> = {}): PlatformAccessSettings => ({
  cookies: {},
  proxies: {},
  proxyCooldownMs: 60_000,
  concurrency: {},
  spacingMs: {},
  botCheckBackoffMs: 600_000,
  ...overrides,
});

async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Settles as `promise` does, or reports that it had not settled within `timeoutMs`. */
async function settledWithin<T>(timeoutMs: number, promise: Promise<T>): Promise<PromiseSettledResult<T> | 'pending'> {
  let timer: NodeJS.Timeout | undefined;
  const pending = new Promise<'pending'>((resolve) => {
    timer = setTimeout(() => resolve('pending'), timeoutMs);
  });
  try {
    return await Promise.race([Promise.allSettled([promise]).then(([result]) => result), pending]);
  } finally {
    clearTimeout(timer);
  }
}

/** A platform backed off for 10 minutes, as after a bot check. */
async function backedOff(): Promise<PlatformAccess> {
  const access = new PlatformAccess(settings());
  const turn = await access.admit(URL, { waitForPlatform: true });
  turn.finish(BOT_CHECK);
  return access;
}

describe('waits before yt-dlp starts', function () {
  this.timeout(60_000);

  describe('platform access', () => {
    it('says it is alive while a download waits out a back-off, and stops waiting when aborted', async () => {
      const access = await backedOff();
      let beats = 0;
      const stop = new AbortController();
      const waiting = access.admit(URL, { waitForPlatform: true, signal: stop.signal, onWaiting: () => (beats += 1) });
      await eventually(() => beats >= 3, 'three beats during the back-off');
      stop.abort(new Error('cancelled'));
      await assert.rejects(waiting, /cancelled/);
    });

    it('says it is alive while a run waits for a slot, and a waiter whose signal aborts leaves the line at once', async () => {
      const access = new PlatformAccess(settings({ concurrency: { '127.0.0.1': 1 } }));
      const holder = await access.admit(URL, { waitForPlatform: true });
      let beats = 0;
      const stop = new AbortController();
      const waiting = access.admit(URL, { waitForPlatform: true, signal: stop.signal, onWaiting: () => (beats += 1) });
      await eventually(() => beats >= 2, 'two beats while waiting for the slot');
      stop.abort(new Error('cancelled'));
      const outcome = await settledWithin(5_000, waiting);
      assert.ok(outcome !== 'pending' && outcome.status === 'rejected', 'the aborted waiter was woken');
      holder.finish(null);
      const next = await settledWithin(5_000, access.admit(URL, { waitForPlatform: true }));
      assert.ok(
        next !== 'pending' && next.status === 'fulfilled',
        'the freed slot went to the next run, not to the one that left',
      );
    });

    it('says it is alive while a run keeps its spacing', async () => {
      const access = new PlatformAccess(settings({ spacingMs: { '127.0.0.1': 3_000 } }));
      (await access.admit(URL, { waitForPlatform: true })).finish(null);
      let beats = 0;
      const started = Date.now();
      (await access.admit(URL, { waitForPlatform: true, onWaiting: () => (beats += 1) })).finish(null);
      assert.ok(Date.now() - started >= 2_000, 'the run was spaced');
      assert.ok(beats >= 2, `${beats} beats during the spacing`);
    });
  });

  it("passes a download's beats to the platform's waits, before yt-dlp starts", async () => {
    const access = await backedOff();
    const workDir = await mkdtemp(path.join(tmpdir(), 'waiting-download-'));
    const extractor = new YtDlpExtractor({
      ytDlpPath: path.join(workDir, 'never-started'),
      ffmpegPath: 'ffmpeg',
      access,
    });
    let beats = 0;
    const stop = new AbortController();
    const download = extractor.download({
      url: URL,
      format: 'audio',
      workDir,
      signal: stop.signal,
      onWaiting: () => (beats += 1),
    });
    await eventually(() => beats >= 3, 'three beats during the back-off');
    stop.abort(new Error('cancelled'));
    await assert.rejects(download, /cancelled/);
    await rm(workDir, { recursive: true, force: true });
  });

  it('beats while a size-limited video download extracts the metadata first, which prints no progress', async () => {
    const workDir = await mkdtemp(path.join(tmpdir(), 'metadata-first-'));
    const program = path.join(workDir, 'slow-yt-dlp');
    await writeFile(program, '#!/bin/sh\nsleep 30\n');
    await chmod(program, 0o755);
    const extractor = new YtDlpExtractor({ ytDlpPath: program, ffmpegPath: 'ffmpeg' });
    let beats = 0;
    const stop = new AbortController();
    const download = extractor.download({
      url: URL,
      format: '720',
      maxFileSizeBytes: 1_000_000,
      workDir,
      signal: stop.signal,
      onWaiting: () => (beats += 1),
    });
    await eventually(() => beats >= 3, 'three beats during the metadata step');
    stop.abort(new Error('cancelled'));
    await assert.rejects(download);
    await rm(workDir, { recursive: true, force: true });
  });

  describe('the self-update gate', () => {
    it('lets a held-back run say it is alive, and stop waiting when aborted', async () => {
      const gate = new ExclusiveGate();
      let finishUpdate!: () => void;
      const update = gate.alone(() => new Promise<void>((resolve) => (finishUpdate = resolve)));
      let beats = 0;
      const stop = new AbortController();
      const held = gate.shared(async () => 'ran', { signal: stop.signal, onWaiting: () => (beats += 1) });
      await eventually(() => beats >= 2, 'two beats while held back');
      stop.abort(new Error('cancelled'));
      await assert.rejects(held, /cancelled/);
      finishUpdate();
      await update;
    });

    it('puts the update off, and lets held-back runs go, when downloads under way outlast its wait', async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'fake-yt-dlp-'));
      const program = path.join(dir, 'yt-dlp');
      await writeFile(
        program,
        `#!/bin/sh\ncase "$1" in\n  --version) echo 2025.01.01 ;;\n  --update-to) touch "$(dirname "$0")/updated" ;;\nesac\n`,
      );
      await chmod(program, 0o755);
      const gate = new ExclusiveGate();
      const updater = new YtDlpSelfUpdate({
        ytDlpPath: program,
        channel: 'stable',
        intervalMs: 3_600_000,
        gate,
        logger: createLogger('silent'),
        onVersion: () => undefined,
        drainWaitMs: 300,
      });
      let finishDownload!: () => void;
      const download = gate.shared(() => new Promise<void>((resolve) => (finishDownload = resolve)));
      const update = updater.updateOnce();
      let laterRan = false;
      const later = gate.shared(async () => {
        laterRan = true;
      });
      await eventually(() => laterRan, 'a run held back by the update started while the long download still ran');
      assert.equal(await update, true, 'put off, not given up');
      await assert.rejects(exists(path.join(dir, 'updated')), 'yt-dlp was not replaced under the download');
      finishDownload();
      await Promise.all([download, later]);
      await rm(dir, { recursive: true, force: true });
    });
  });
});
