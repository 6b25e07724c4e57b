import assert from 'node:assert/strict';
import { loadConfig } from '../../../infrastructure/config/config.js';

describe('webhook configuration', () => {
  it('defaults to the spec: a 15 s acknowledgement limit and nine delays from 30 s to 128 min', () => {
    const config = loadConfig({});
    assert.equal(config.webhookTimeoutMs, 15_000);
    assert.deepEqual(config.webhookRetryScheduleMs, [30, 60, 120, 240, 480, 960, 1920, 3840, 7680].map((seconds) => seconds * 1000));
  });

  it('takes a shortened schedule, and refuses one that does not give ten attempts, naming the setting', () => {
    assert.deepEqual(loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '1,2,3,4,5,6,7,8,9' }).webhookRetryScheduleMs, [1, 2, 3, 4, 5, 6, 7, 8, 9]);
    assert.throws(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '1,2,3' }), /WEBHOOK_RETRY_SCHEDULE_MS must list nine delays/);
    assert.throws(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '1,2,3,4,5,6,7,8,-9' }), /WEBHOOK_RETRY_SCHEDULE_MS/);
    assert.throws(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '0' }), /WEBHOOK_TIMEOUT_MS must be between/);
  });
});
