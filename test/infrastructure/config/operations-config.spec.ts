import assert from 'node:assert/strict';
import { loadConfig } from '../../../infrastructure/config/config.js';

describe('configuration for operating the service', () => {
  it('keeps files 24 h by default, and never shorter than a link lives unless told so', () => {
    assert.equal(loadConfig({}).fileRetentionSeconds, 86_400);
    assert.throws(() => loadConfig({ FILE_RETENTION_SECONDS: '3600' }), /FILE_RETENTION_SECONDS \(3600\) is shorter than DOWNLOAD_LINK_TTL_SECONDS \(21600\)/);
    assert.equal(loadConfig({ FILE_RETENTION_SECONDS: '3600', FILE_RETENTION_BELOW_LINK_TTL: 'allow' }).fileRetentionSeconds, 3600);
    assert.equal(loadConfig({ FILE_RETENTION_SECONDS: '3600', DOWNLOAD_LINK_TTL_SECONDS: '3600' }).fileRetentionSeconds, 3600);
    assert.equal(loadConfig({ FILE_RETENTION_SECONDS: '0' }).fileRetentionSeconds, 0, '0 keeps files for ever');
  });
});
