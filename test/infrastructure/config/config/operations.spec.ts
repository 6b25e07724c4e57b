import assert from 'node:assert/strict';
import { loadConfig } from '../../../../infrastructure/config/config.js';

describe('configuration for operating the service', () => {
  it('keeps files 24 h by default, and never shorter than a link lives unless told so', () => {
    assert.equal(loadConfig({}).retention.fileRetentionSeconds, 86_400);
    assert.throws(
      () => loadConfig({ FILE_RETENTION_SECONDS: '3600' }),
      /FILE_RETENTION_SECONDS \(3600\) is shorter than DOWNLOAD_LINK_TTL_SECONDS \(21600\)/,
    );
    assert.equal(
      loadConfig({ FILE_RETENTION_SECONDS: '3600', FILE_RETENTION_BELOW_LINK_TTL: 'allow' }).retention
        .fileRetentionSeconds,
      3600,
    );
    assert.equal(
      loadConfig({ FILE_RETENTION_SECONDS: '3600', DOWNLOAD_LINK_TTL_SECONDS: '3600' }).retention.fileRetentionSeconds,
      3600,
    );
    assert.equal(
      loadConfig({ FILE_RETENTION_SECONDS: '0' }).retention.fileRetentionSeconds,
      0,
      '0 keeps files for ever',
    );
  });

  it('waits at most 500 ms for the accounts read model by default, and refuses a wait that is not a bounded whole number', () => {
    assert.equal(loadConfig({}).accounts.readYourWritesWaitMs, 500);
    assert.equal(loadConfig({ READ_YOUR_WRITES_WAIT_MS: '0' }).accounts.readYourWritesWaitMs, 0);
    assert.throws(() => loadConfig({ READ_YOUR_WRITES_WAIT_MS: 'soon' }), /READ_YOUR_WRITES_WAIT_MS/);
    assert.throws(() => loadConfig({ READ_YOUR_WRITES_WAIT_MS: '600000' }), /READ_YOUR_WRITES_WAIT_MS/);
  });

  it('reads rate limits per plan over a default', () => {
    assert.deepEqual(loadConfig({}).rateLimits.limits, { defaults: { perKey: 10, perAccount: 20 }, byPlan: {} });
    assert.deepEqual(loadConfig({ RATE_LIMITS_BY_PLAN: 'free=2/4, scale=0/0' }).rateLimits.limits.byPlan, {
      free: { perKey: 2, perAccount: 4 },
      scale: { perKey: 0, perAccount: 0 },
    });
    assert.throws(
      () => loadConfig({ RATE_LIMITS_BY_PLAN: 'free=2' }),
      /RATE_LIMITS_BY_PLAN must list plan=perKey\/perAccount entries/,
    );
  });

  it('reads platform access settings, with the single cookies file and proxy as the defaults for every platform', () => {
    const access = loadConfig({
      YT_DLP_COOKIES_FILE: '/c/any.txt',
      YT_DLP_COOKIES_FILES: 'youtube.com=/c/a.txt|/c/b.txt',
      YT_DLP_PROXY: 'http://one:3128',
      PLATFORM_CONCURRENCY: 'youtube.com=2,*=4',
    }).extractor.platformAccess;
    assert.deepEqual(access.cookies, { 'youtube.com': ['/c/a.txt', '/c/b.txt'], '*': ['/c/any.txt'] });
    assert.deepEqual(access.proxies, { '*': ['http://one:3128'] });
    assert.deepEqual(access.concurrency, { 'youtube.com': 2, '*': 4 });
    assert.equal(access.botCheckBackoffMs, 600_000);
    assert.throws(
      () => loadConfig({ YT_DLP_PROXIES: 'http://no-platform' }),
      /YT_DLP_PROXIES must list platform=value entries/,
    );
    assert.throws(
      () => loadConfig({ PLATFORM_CONCURRENCY: 'youtube.com=many' }),
      /PLATFORM_CONCURRENCY must give whole numbers/,
    );
    assert.deepEqual(
      loadConfig({ YT_DLP_EXTRACTOR_ARGS: ' youtube:player_client=default,mweb  other:x=1 ' }).extractor
        .ytDlpExtractorArgs,
      ['youtube:player_client=default,mweb', 'other:x=1'],
    );
  });

  it('selects the S3 store only with a bucket', () => {
    assert.equal(loadConfig({}).storage.objectStorage, null);
    assert.throws(() => loadConfig({ FILE_STORE: 's3' }), /S3_BUCKET is required/);
    assert.deepEqual(
      loadConfig({ FILE_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000' }).storage.objectStorage,
      {
        bucket: 'b',
        prefix: '',
        endpoint: 'http://127.0.0.1:9000',
        region: 'us-east-1',
        forcePathStyle: true,
        partSizeBytes: 8 * 1024 * 1024,
      },
    );
  });
});
