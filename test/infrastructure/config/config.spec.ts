import assert from 'node:assert/strict';
import { loadConfig } from '../../../infrastructure/config/config.js';
import { DEFAULT_PLAN_CATALOG, loadPlanCatalog } from '../../../infrastructure/config/plan-catalog.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    assert.equal(config.http.port, 8080);
    assert.equal(config.storage.eventStoreUrl, null);
    assert.deepEqual(config.platforms.shortHosts, ['youtu.be']);
    assert.ok(config.platforms.videoHosts.includes('www.youtube.com'));
    assert.deepEqual(config.webhooks.allowHosts, []);
  });

  it('stops start-up with a message naming the bad setting', () => {
    assert.throws(() => loadConfig({ PORT: 'eighty' }), /PORT must be a whole number/);
    assert.throws(() => loadConfig({ WORKER_CONCURRENCY: '0' }), /WORKER_CONCURRENCY must be between 1 and 64/);
    assert.throws(() => loadConfig({ PUBLIC_BASE_URL: 'ftp://x' }), /PUBLIC_BASE_URL must be an http\(s\) URL/);
    assert.throws(
      () => loadConfig({ EVENTSTORE_URL: 'postgres://x' }),
      /EVENTSTORE_URL must be an esdb:\/\/ or kurrentdb:\/\/ URL/,
    );
    assert.throws(() => loadConfig({ LOG_LEVEL: 'loud' }), /LOG_LEVEL must be one of/);
    assert.throws(() => loadConfig({ LEGACY_API_PREFIXES: 'api' }), /LEGACY_API_PREFIXES/);
    assert.throws(
      () => loadConfig({ HTTP_REQUEST_TIMEOUT_MS: '5000', HTTP_HEADERS_TIMEOUT_MS: '6000' }),
      /HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS/,
    );
  });

  it("reads a cluster: NATS_URL as a list, and the work stream's replicas (1 unless set, at most 5)", () => {
    assert.equal(loadConfig({}).queue.natsStreamReplicas, 1);
    const config = loadConfig({ NATS_URL: 'nats://a.invalid:4222,nats://b.invalid:4222', NATS_STREAM_REPLICAS: '3' });
    assert.equal(config.queue.natsStreamReplicas, 3);
    assert.equal(config.queue.natsUrl, 'nats://a.invalid:4222,nats://b.invalid:4222');
    assert.throws(() => loadConfig({ NATS_STREAM_REPLICAS: '6' }), /NATS_STREAM_REPLICAS must be between 1 and 5/);
  });

  it('cuts off slow clients by default: 30 s for a request, 10 s for its headers', () => {
    const config = loadConfig({});
    assert.equal(config.http.requestTimeoutMs, 30_000);
    assert.equal(config.http.headersTimeoutMs, 10_000);
  });

  it('selects EventStoreDB for esdb:// and kurrentdb:// URLs', () => {
    assert.equal(
      loadConfig({ EVENTSTORE_URL: 'esdb://localhost:2113?tls=false' }).storage.eventStoreUrl,
      'esdb://localhost:2113?tls=false',
    );
    assert.equal(
      loadConfig({ EVENTSTORE_URL: 'kurrentdb://localhost:2113' }).storage.eventStoreUrl,
      'kurrentdb://localhost:2113',
    );
  });

  it('runs embedded, under the data directory, unless a server URL is set', () => {
    const embedded = loadConfig({ DATA_DIR: '/srv/vds' });
    assert.equal(embedded.mode, 'embedded');
    assert.equal(embedded.storage.embeddedDataDir, path.join('/srv/vds', 'embedded'));
    for (const name of ['DATABASE_URL', 'EVENTSTORE_URL', 'NATS_URL']) {
      const value =
        name === 'EVENTSTORE_URL'
          ? 'esdb://localhost:2113'
          : name === 'NATS_URL'
            ? 'nats://127.0.0.1:4222'
            : 'postgres://db/vds';
      assert.equal(loadConfig({ [name]: value }).mode, 'server', name);
    }
    assert.equal(loadConfig({ DATABASE_URL: ' ' }).mode, 'embedded', 'a blank value counts as unset');
  });

  it('loads a plan catalog file and names what is wrong in it', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'plans-'));
    const good = path.join(dir, 'good.json');
    const catalog = structuredClone(DEFAULT_PLAN_CATALOG);
    catalog.starter.allowances.download_count = 7;
    writeFileSync(good, JSON.stringify(catalog));
    assert.equal(loadPlanCatalog(good).starter.allowances.download_count, 7);
    const bad = path.join(dir, 'bad.json');
    (catalog.growth.allowances as Record<string, unknown>).info = -1;
    writeFileSync(bad, JSON.stringify(catalog));
    assert.throws(() => loadPlanCatalog(bad), /growth\.allowances\.info must be a non-negative integer/);
  });
});
