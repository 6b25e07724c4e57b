import assert from 'node:assert/strict';
import { loadConfig } from '../../../../infrastructure/config/config.js';

describe('configuration of lookups', () => {
  it('keeps info and client-download jobs an hour and knows each platform’s hosts by default', () => {
    const config = loadConfig({});
    assert.equal(config.lookups.infoJobTtlSeconds, 3600);
    assert.equal(config.lookups.clientDownloadJobTtlSeconds, 3600);
    assert.equal(config.lookups.channelListingTimeoutSeconds, 300);
    assert.ok(config.platforms.photoSharingHosts.includes('www.instagram.com'));
    assert.ok(config.platforms.shortVideoShortHosts.includes('vm.tiktok.com'));
    assert.deepEqual(config.platforms.socialNetworkShortHosts, ['fb.watch']);
  });

  it('reads the settings, and names a bad one', () => {
    const config = loadConfig({ INFO_JOB_TTL_SECONDS: '5', SOCIAL_NETWORK_HOSTS: 'a.example, b.example' });
    assert.equal(config.lookups.infoJobTtlSeconds, 5);
    assert.deepEqual(config.platforms.socialNetworkHosts, ['a.example', 'b.example']);
    assert.throws(() => loadConfig({ INFO_JOB_TTL_SECONDS: '0' }), /INFO_JOB_TTL_SECONDS must be between 1 and/);
    assert.throws(
      () => loadConfig({ CLIENT_DOWNLOAD_JOB_TTL_SECONDS: 'soon' }),
      /CLIENT_DOWNLOAD_JOB_TTL_SECONDS must be a whole number/,
    );
  });

  it('ends lookups still pending an hour after their reservation, by default', () => {
    assert.equal(loadConfig({}).jobs.pendingLookupLimitMs, 3_600_000);
    assert.equal(loadConfig({ PENDING_LOOKUP_LIMIT_MS: '600000' }).jobs.pendingLookupLimitMs, 600_000);
    assert.throws(() => loadConfig({ PENDING_LOOKUP_LIMIT_MS: '10' }), /PENDING_LOOKUP_LIMIT_MS must be between/);
  });
});
