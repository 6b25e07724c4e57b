import assert from 'node:assert/strict';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import {
  FIXTURE_VIDEOS,
  type FixturePlatform,
  serviceEnvFor,
  startFixturePlatform,
} from '../fixtures/platform/fixture-platform.js';
import { apiClient } from '../support/api-client.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { isAlive, ownChildren } from '../support/processes.js';

async function eventually(condition: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    assert.ok(Date.now() < deadline, `${what} within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** As the OOM killer would: SIGKILL to every idle helper, then wait until they are gone. */
async function killHelpers(): Promise<number[]> {
  const children = await ownChildren();
  const pids = children.filter((child) => child.commandLine.includes('yt_dlp_helper.py')).map((child) => child.pid);
  // The children listed tell a helper that never started (the service fell back to the command line) from one not found.
  assert.ok(
    pids.length > 0,
    `the API process runs warm helpers; its children: ${JSON.stringify(children.map((child) => child.commandLine))}`,
  );
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  await eventually(async () => pids.every((pid) => !isAlive(pid)), 'the helpers died');
  return pids;
}

/** The warm helpers running now. */
async function helperPids(): Promise<number[]> {
  return (await ownChildren())
    .filter((child) => child.commandLine.includes('yt_dlp_helper.py'))
    .map((child) => child.pid);
}

/**
 * The URLs looked up, and those of them answered by `yt-dlp -J` instead of a helper: a lookup that finds no helper
 * (every place held by a dead one) still answers within the wait, on the command line, so an answer alone proves nothing.
 */
function watchLookups(service: TestService): { all: string[]; onTheCommandLine: string[] } {
  const seen = { all: [] as string[], onTheCommandLine: [] as string[] };
  const warm = service.service.container.resolve(TOKENS.warmExtractor);
  const commandLine = service.service.container.resolve(TOKENS.ytDlp)?.extractor;
  assert.ok(warm !== null && commandLine !== undefined, 'the service looks videos up with warm helpers');
  const probeWarm = warm.probe.bind(warm);
  warm.probe = (url, options) => {
    seen.all.push(url);
    return probeWarm(url, options);
  };
  const probeCommandLine = commandLine.probe.bind(commandLine);
  commandLine.probe = (url, options) => {
    seen.onTheCommandLine.push(url);
    return probeCommandLine(url, options);
  };
  return seen;
}

describe('drill: warm helpers killed while idle', function () {
  this.timeout(180_000);
  let platform: FixturePlatform;
  let service: TestService;
  let call: ReturnType<typeof apiClient>;

  before(async () => {
    platform = await startFixturePlatform();
    // No worker role: the API process's helpers are the only ones here, and jobs stay queued.
    service = await startTestService({
      roles: ['api', 'projector'],
      label: 'helper_drill',
      env: { ...serviceEnvFor(platform), WARM_EXTRACTOR_PROCESSES: '2' },
    });
    call = apiClient(service.url);
  });
  after(async () => {
    await service?.stop();
    await platform?.stop();
  });

  it('answers a submission of a new video within 30 s after the idle helpers were killed twice', async () => {
    const { apiKey } = await service.createAccount();
    const lookups = watchLookups(service);
    const killed: number[] = [];
    const submit = async (id: string) => {
      const started = Date.now();
      // A submission that never answers fails the test at 40 s, as the client would give up, instead of hanging it.
      let timer: NodeJS.Timeout | undefined;
      const givenUp = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer for ${id} within 40 s`)), 40_000);
      });
      try {
        const response = await Promise.race([
          call('POST', '/api/v2/download', { key: apiKey, json: { url: platform.watchUrl(id) } }),
          givenUp,
        ]);
        return { response, ms: Date.now() - started };
      } finally {
        clearTimeout(timer);
      }
    };
    /**
     * Each answer came from a helper started after the deaths. A lookup may run on the command line only after waiting
     * out the pool's 10 s for a helper, as on a machine so loaded that a new helper takes longer to start: the helper
     * must then be running all the same (a place leaked by a dead helper would start none).
     */
    let fellBack = 0;
    const answeredByANewHelper = async (round: string, ms: number) => {
      if (lookups.onTheCommandLine.length > fellBack) {
        assert.ok(ms >= 9_500, `${round}: a lookup fell back to the command line after ${ms} ms, before the 10 s wait`);
        fellBack = lookups.onTheCommandLine.length;
      }
      const serving = await helperPids();
      assert.ok(
        serving.some((pid) => !killed.includes(pid)),
        `${round}: a helper other than the killed ${JSON.stringify(killed)} runs: ${JSON.stringify(serving)}`,
      );
    };
    const first = await submit(FIXTURE_VIDEOS.clip.id);
    assert.equal(first.response.status, 200);
    await answeredByANewHelper('before the deaths', first.ms);
    killed.push(...(await killHelpers()));
    const second = await submit(FIXTURE_VIDEOS.voice.id);
    assert.equal(second.response.status, 200);
    await answeredByANewHelper('after the first deaths', second.ms);
    killed.push(...(await killHelpers()));
    const { response, ms } = await submit(FIXTURE_VIDEOS.multi.id);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.ok(ms < 30_000, `answered in ${ms} ms`);
    await answeredByANewHelper('after the second deaths', ms);
    // Every submission was looked up: an answer from a cache would have tested no helper at all.
    for (const video of [FIXTURE_VIDEOS.clip, FIXTURE_VIDEOS.voice, FIXTURE_VIDEOS.multi])
      assert.ok(
        lookups.all.some((url) => url.includes(video.id)),
        `${video.id} was looked up: ${lookups.all}`,
      );
  });
});
