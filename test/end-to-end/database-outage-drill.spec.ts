import assert from 'node:assert/strict';
import { PostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.js';
import { apiClient } from '../support/api-client.js';
import { ScriptedExtractor, answerAtOnce, writeDownloadedAudio } from '../support/scripted-extractor.js';
import { type TcpProxy, startTcpProxy } from '../support/tcp-proxy.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** Downloads wait for the test's signal, so the outage can begin while one is under way. */
function heldExtractor() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let reportStarted!: () => void;
  const started = new Promise<void>((resolve) => (reportStarted = resolve));
  const extractor = new ScriptedExtractor({
    probe: answerAtOnce({ id: 'drill', title: 'Drill', duration: 30 }),
    download: async (request) => {
      reportStarted();
      await released;
      return writeDownloadedAudio(request, Buffer.alloc(25_000_000));
    },
  });
  return { extractor, started, release };
}

describe('drill: PostgreSQL unreachable during a download', function () {
  this.timeout(180_000);
  let proxy: TcpProxy;
  let service: TestService;
  const { extractor, started, release } = heldExtractor();

  before(async () => {
    proxy = await startTcpProxy('127.0.0.1', 5432);
    service = await startTestService({
      label: 'outage_drill',
      overrides: { extractor },
      databaseUrl: (url) => {
        const viaProxy = new URL(url);
        viaProxy.port = String(proxy.port);
        return viaProxy.toString();
      },
      env: {
        WORK_ACK_WAIT_MS: '5000',
        WEBHOOK_TIMEOUT_MS: '3000',
        DOWNLOAD_MAX_ATTEMPTS: '1',
        RECONCILE_INTERVAL_MS: '1000',
      },
    });
  });

  after(async () => {
    proxy?.restore();
    await service?.stop();
    await proxy?.close();
  });

  it('ends the job COMPLETED and its reservation charged after an outage longer than the old retry bound (7 s)', async () => {
    const { accountId, apiKey } = await service.createAccount({ planId: 'starter' });
    const call = apiClient(service.url);
    const submitted = await call('POST', '/api/v2/download', {
      key: apiKey,
      json: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ' },
    });
    assert.equal(submitted.status, 200);
    const { jobId } = submitted.body;
    await started;

    proxy.cut();
    // The download finishes while the database is gone, so its result cannot be recorded.
    setTimeout(release, 500).unref();
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    proxy.restore();

    // Read behind the service's back, straight from the server.
    const store = new PostgresEventStore({
      connectionString: (service.database ?? assert.fail('runs in server mode')).url,
    });
    try {
      const deadline = Date.now() + 90_000;
      let jobTypes: string[] = [];
      let accountTypes: string[] = [];
      while (Date.now() < deadline) {
        jobTypes = (await store.readStream(`download-${jobId}`)).map((event) => event.type);
        accountTypes = (await store.readStream(`account-${accountId}`)).map((event) => event.type);
        if (accountTypes.includes('BandwidthCharged') || accountTypes.includes('DownloadReleased')) break;
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      assert.equal(jobTypes.at(-1), 'DownloadCompleted', `the job ended terminal: ${jobTypes.join(', ')}`);
      assert.ok(accountTypes.includes('BandwidthCharged'), `its reservation was charged: ${accountTypes.join(', ')}`);
      assert.equal(accountTypes.filter((type) => type === 'BandwidthCharged').length, 1);
    } finally {
      await store.close();
    }
  });
});
