import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { FIXTURE_VIDEOS, type FixturePlatform, startFixturePlatform } from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { portBelowEphemeralRange } from '../support/port-below-ephemeral-range.js';
import { waitFor } from '../support/wait-for.js';

/** Polls of the API keep well inside the plan's 10 requests a second per key. */
const POLL_MS = 250;
import { CONTAINER_IMAGE, envArgs, exitCodeOf, podman, processUsers, removeAll, timedStop } from './podman.js';
import { adminInContainer, fixturePlatformOptions, runService, startAgain } from './service-container.js';

/** Seconds podman waits after SIGTERM before it kills; a clean stop ends well inside it. */
const STOP_TIMEOUT_SECONDS = 30;

/**
 * The image in embedded mode, as the README runs it: one container, its data in a named volume on /data, the
 * admin CLI run inside it. The service downloads from the fixture platform on this machine's loopback.
 */
describe('the container image, embedded', function () {
  this.timeout(300_000);
  const suffix = randomBytes(4).toString('hex');
  const name = `vds-smoke-${suffix}`;
  const upgraded = `${name}-upgraded`;
  const volume = `vds-smoke-data-${suffix}`;
  const port = portBelowEphemeralRange();
  const baseUrl = `http://127.0.0.1:${port}`;
  const call = apiClient(baseUrl);
  let platform: FixturePlatform;
  let options: string[];
  let apiKey: string;
  let jobId: string;
  /** The account's balances and the first job, as they were before the first stop. */
  let expected: Awaited<ReturnType<typeof keptState>>;

  before(async function () {
    if (CONTAINER_IMAGE === undefined) this.skip();
    platform = await startFixturePlatform();
    options = [
      ...(await fixturePlatformOptions(platform)),
      ...envArgs({ PORT: String(port), PUBLIC_BASE_URL: baseUrl }),
      '-v',
      `${volume}:/data`,
    ];
  });
  after(async () => {
    await removeAll([name, upgraded], [volume]);
    await platform?.stop();
  });

  const jobStatus = async (id: string) => (await call('GET', `/api/v2/download/${id}`, { key: apiKey })).body;
  const job = () => jobStatus(jobId);
  /** Submits a download and waits until it ends; gives its last status. */
  const downloaded = async (request: Record<string, unknown>) => {
    const submitted = await call('POST', '/api/v2/download', { key: apiKey, json: request });
    assert.equal(submitted.status, 200, JSON.stringify(submitted.body));
    return waitFor(
      `the download of ${JSON.stringify(request)} ends`,
      async () => {
        const body = await jobStatus(submitted.body.jobId);
        return body.status === 'COMPLETED' || body.status === 'FAILED' ? body : null;
      },
      60_000,
      POLL_MS,
    );
  };
  const balances = async () => (await call('GET', '/api/v2/me', { key: apiKey })).body.balances;
  const fileAnswers = async (downloadUrl: string, size: number) => {
    const file = await fetch(downloadUrl);
    assert.equal(file.status, 200);
    assert.equal((await file.arrayBuffer()).byteLength, size, 'the whole file');
  };

  it('starts, answers /readyz and its health check, and runs as the non-root user', async () => {
    const started = await runService(name, options, CONTAINER_IMAGE as string, [], `${baseUrl}/readyz`);
    console.log(`      ready ${(started.readyMs / 1000).toFixed(1)} s after podman run (embedded, first start)`);
    const ready = await (await fetch(`${baseUrl}/readyz`)).json();
    assert.equal(ready.mode, 'embedded');
    const health = await podman(['healthcheck', 'run', name]);
    assert.equal(health.code, 0, `the image's HEALTHCHECK passes: ${health.stdout}${health.stderr}`);
    const processes = await processUsers(name);
    assert.ok(
      processes.some((process) => process.command.includes('build/infrastructure/main.js')),
      'the service runs',
    );
    assert.deepEqual(
      processes.filter((process) => process.user !== 'vds'),
      [],
      'every process runs as the image user',
    );
  });

  it('opens an account with the CLI inside the container and completes a download whose link answers', async () => {
    const account = await adminInContainer(name, [
      'create-account',
      '--name',
      'Ada Lovelace',
      '--email',
      'ada@example.com',
      '--plan',
      'starter',
    ]);
    apiKey = account.apiKey;
    const done = await downloaded({ url: platform.watchUrl(FIXTURE_VIDEOS.clip.id) });
    assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
    jobId = done.jobId;
    await fileAnswers(done.downloadUrl, done.fileSize);
    await waitFor('the download is charged', async () => (await balances()).download_count.used === 1, 60_000, POLL_MS);
  });

  // The image's ffmpeg is built with only what these need: merging HLS renditions into MP4, encoding MP3, and
  // re-encoding a cut section (--force-keyframes-at-cuts); its ffprobe reads each file to name what was delivered.
  it("makes with the image's ffmpeg a 720p MP4 from HLS, an MP3 and a cut section", async () => {
    const made = [
      { request: { url: platform.watchUrl(FIXTURE_VIDEOS.multi.id), format: '720' }, magic: 'ftyp', at: 4 },
      { request: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: 'audio-mp3' }, magic: 'ID3', at: 0 },
      {
        request: { url: platform.watchUrl(FIXTURE_VIDEOS.clip.id), format: '360', startTime: 1, endTime: 4 },
        magic: 'ftyp',
        at: 4,
      },
    ];
    for (const { request, magic, at } of made) {
      const done = await downloaded(request);
      assert.equal(done.status, 'COMPLETED', JSON.stringify(done));
      assert.equal(done.actualFormat, request.format, "as the image's ffprobe reads the file");
      const file = Buffer.from(await (await fetch(done.downloadUrl)).arrayBuffer());
      assert.equal(file.byteLength, done.fileSize, 'the whole file');
      assert.equal(file.subarray(at, at + magic.length).toString('latin1'), magic, `a ${request.format} file`);
    }
    await waitFor(
      'the downloads are charged',
      async () => (await balances()).download_count.used === 4,
      60_000,
      POLL_MS,
    );
  });

  it('stops on SIGTERM with exit code 0 well inside the stop timeout', async () => {
    expected = await keptState();

    const tookMs = await timedStop(name, STOP_TIMEOUT_SECONDS);
    console.log(`      stopped in ${(tookMs / 1000).toFixed(1)} s`);
    assert.equal(await exitCodeOf(name), 0);
    assert.ok(tookMs < (STOP_TIMEOUT_SECONDS * 1000) / 2, `stopped in ${tookMs} ms`);
  });

  it('restarted, keeps the account, its balances and the job', async () => {
    const restarted = await startAgain(name, `${baseUrl}/readyz`);
    console.log(`      ready ${(restarted.readyMs / 1000).toFixed(1)} s after podman start (restart)`);
    assert.deepEqual(await keptState(), expected);
  });

  it("replaced by a new container on the same volume (an upgrade's steps), keeps them too", async () => {
    await timedStop(name, STOP_TIMEOUT_SECONDS);
    await podman(['rm', name]);
    const replaced = await runService(upgraded, options, CONTAINER_IMAGE as string, [], `${baseUrl}/readyz`);
    console.log(`      ready ${(replaced.readyMs / 1000).toFixed(1)} s after podman run on the kept volume`);
    assert.deepEqual(await keptState(), expected);
    await timedStop(upgraded, STOP_TIMEOUT_SECONDS);
    assert.equal(await exitCodeOf(upgraded), 0);
  });

  /** What must survive a restart: the balances, the job, and its file's link answering. */
  async function keptState() {
    const state = await job();
    if (state.status === 'COMPLETED') await fileAnswers(state.downloadUrl, state.fileSize);
    // The link is signed afresh at each poll.
    const { downloadUrl: _signedPerPoll, ...kept } = state;
    return { balances: await balances(), job: kept };
  }
});
