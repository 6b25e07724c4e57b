import assert from 'node:assert/strict';
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
async function killHelpers(): Promise<void> {
  const children = await ownChildren();
  const pids = children.filter((child) => child.commandLine.includes('yt_dlp_helper.py')).map((child) => child.pid);
  // The children listed tell a helper that never started (the service fell back to the command line) from one not found.
  assert.ok(
    pids.length > 0,
    `the API process runs warm helpers; its children: ${JSON.stringify(children.map((child) => child.commandLine))}`,
  );
  for (const pid of pids) process.kill(pid, 'SIGKILL');
  await eventually(async () => pids.every((pid) => !isAlive(pid)), 'the helpers died');
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
    assert.equal((await submit(FIXTURE_VIDEOS.clip.id)).response.status, 200);
    await killHelpers();
    assert.equal((await submit(FIXTURE_VIDEOS.voice.id)).response.status, 200);
    await killHelpers();
    const { response, ms } = await submit(FIXTURE_VIDEOS.multi.id);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    assert.ok(ms < 30_000, `answered in ${ms} ms`);
  });
});
