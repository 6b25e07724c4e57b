import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DownloadMediaRequest, Extractor, VideoMetadata } from '../../application/ports/extractor.js';
import { PostgresEventStore } from '../../infrastructure/event-store/postgres/postgres-event-store.js';
import { apiClient } from '../support/api-client.js';
import { type TcpProxy, startTcpProxy } from '../support/tcp-proxy.js';
import { type TestService, startTestService } from '../support/test-service.js';

/** Downloads wait for the test's signal, so the outage can begin while one is under way. */
class HeldExtractor implements Extractor {
  async listChannel(): Promise<never> {
    throw new Error('not used');
  }
  async resolveMediaLinks(): Promise<never> {
    throw new Error('not used');
  }
  downloads = 0;
  private letGo!: () => void;
  private readonly released = new Promise<void>((resolve) => (this.letGo = resolve));
  private reportStarted!: () => void;
  readonly started = new Promise<void>((resolve) => (this.reportStarted = resolve));

  release(): void {
    this.letGo();
  }

  async probe(): Promise<VideoMetadata> {
    return { id: 'drill', title: 'Drill', duration: 30, liveStatus: 'not_live', tags: [] };
  }

  async download(request: DownloadMediaRequest) {
    this.downloads += 1;
    this.reportStarted();
    await this.released;
    const filePath = path.join(request.workDir, 'media.m4a');
    await writeFile(filePath, Buffer.alloc(25_000_000));
    return { filePath, fileSize: 25_000_000, actualFormat: 'audio' as const, extension: 'm4a', mimeType: 'audio/mp4' };
  }
}

describe('drill: PostgreSQL unreachable during a download', function () {
  this.timeout(180_000);
  let proxy: TcpProxy;
  let service: TestService;
  const extractor = new HeldExtractor();

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
    await extractor.started;

    proxy.cut();
    // The download finishes while the database is gone, so its result cannot be recorded.
    setTimeout(() => extractor.release(), 500).unref();
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
