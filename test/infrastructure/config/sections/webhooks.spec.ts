import assert from 'node:assert/strict';
import { loadConfig } from '../../../../infrastructure/config/config.js';

describe('webhook configuration', () => {
  it('defaults to the spec: a 15 s acknowledgement limit and nine delays from 30 s to 128 min', () => {
    const config = loadConfig({});
    assert.equal(config.webhooks.timeoutMs, 15_000);
    assert.deepEqual(
      config.webhooks.retryScheduleMs,
      [30, 60, 120, 240, 480, 960, 1920, 3840, 7680].map((seconds) => seconds * 1000),
    );
  });

  it('takes a shortened schedule, and refuses one that does not give ten attempts, naming the setting', () => {
    assert.deepEqual(
      loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '1,2,3,4,5,6,7,8,9' }).webhooks.retryScheduleMs,
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.throws(
      () => loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '1,2,3' }),
      /WEBHOOK_RETRY_SCHEDULE_MS must list nine delays/,
    );
    assert.throws(() => loadConfig({ WEBHOOK_RETRY_SCHEDULE_MS: '1,2,3,4,5,6,7,8,-9' }), /WEBHOOK_RETRY_SCHEDULE_MS/);
    assert.throws(() => loadConfig({ WEBHOOK_TIMEOUT_MS: '0' }), /WEBHOOK_TIMEOUT_MS must be between/);
  });

  it('refuses an ack wait too short for a webhook attempt that waits out its timeout, naming both settings', () => {
    assert.throws(
      () => loadConfig({ WORK_ACK_WAIT_MS: '15000' }),
      (error: unknown) =>
        error instanceof Error &&
        /WORK_ACK_WAIT_MS \(15000\)/.test(error.message) &&
        /WEBHOOK_TIMEOUT_MS \(15000\)/.test(error.message),
    );
    assert.throws(
      () => loadConfig({ WORK_ACK_WAIT_MS: '5000', WEBHOOK_TIMEOUT_MS: '4000' }),
      /WORK_ACK_WAIT_MS .* WEBHOOK_TIMEOUT_MS/,
    );
    assert.equal(loadConfig({ WORK_ACK_WAIT_MS: '17000' }).queue.workAckWaitMs, 17_000);
    assert.equal(loadConfig({ WORK_ACK_WAIT_MS: '5000', WEBHOOK_TIMEOUT_MS: '3000' }).queue.workAckWaitMs, 5_000);
  });
});
