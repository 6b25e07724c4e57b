import assert from 'node:assert/strict';
import { connect } from 'node:net';
import type { EventStore } from '../../application/ports/event-store.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import type { ResolveHost } from '../../infrastructure/webhooks/checked-address-lookup.js';
import { apiClient } from '../support/api-client.js';
import { portBelowEphemeralRange } from '../support/port-below-ephemeral-range.js';
import { ControlledExtractor } from '../support/controlled-extractor.js';
import { type TestService, startTestService } from '../support/test-service.js';
import { type WebhookReceiver, startWebhookReceiver } from '../support/webhook-receiver.js';

/** `hooks.example.com` looks public but resolves to loopback; any other name does not resolve. */
const resolveHost: ResolveHost = async (hostname) => {
  if (hostname === 'hooks.example.com') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
};

/** A loopback TCP port nothing listens on, so a connection there is refused. */
/**
 * A port nothing listens on: below the range `listen(0)` draws from, so no service of a spec running beside this one
 * takes it meanwhile (a port freed by `listen(0)` was, and answered the attempts this spec counts as refused).
 */
async function closedTcpPort(): Promise<number> {
  for (;;) {
    const port = portBelowEphemeralRange();
    if (!(await acceptsConnections(port))) return port;
  }
}

function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

for (const embedded of [false, true]) {
  describe(`HTTP: GET /download/{jobId}/webhook-attempts (${embedded ? 'embedded' : 'server'} mode)`, function () {
    this.timeout(120_000);
    let service: TestService;
    let call: ReturnType<typeof apiClient>;
    let receiver: WebhookReceiver;

    before(async () => {
      // The first delivery is refused with a 500, the second acknowledged.
      receiver = await startWebhookReceiver((n) => ({ status: n === 1 ? 500 : 200 }));
      service = await startTestService({
        label: 'http_webhook_attempts',
        embedded,
        overrides: { extractor: new ControlledExtractor(), webhookResolver: resolveHost },
        env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_RETRY_SCHEDULE_MS: Array(9).fill('300').join(',') },
      });
      call = apiClient(service.url);
    });
    after(async () => {
      await service?.stop();
      await receiver?.stop();
    });

    const submit = async (key: string, videoId: string, webhookUrl?: string): Promise<string> => {
      const response = await call('POST', '/api/v2/download', {
        key,
        json: { url: `https://www.youtube.com/watch?v=${videoId}`, webhookUrl },
      });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body.jobId as string;
    };

    it('shows each attempt to its owner: time, answer, duration and the next wait', async () => {
      const { apiKey } = await service.createAccount();
      const other = await service.createAccount();
      const jobId = await submit(apiKey, 'hooked', receiver.url('/hook'));
      assert.deepEqual((await call('GET', `/api/v2/download/${jobId}/webhook-attempts`, { key: apiKey })).body, {
        attempts: [],
      });
      // Cancelling fails the job, which sends its download.failed webhook.
      assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey })).status, 200);
      await receiver.waitFor(2, 60_000);

      const deadline = Date.now() + 30_000;
      let attempts: any[] = [];
      while (Date.now() < deadline) {
        const response = await call('GET', `/api/v2/download/${jobId}/webhook-attempts`, { key: apiKey });
        assert.equal(response.status, 200);
        attempts = response.body.attempts;
        if (attempts.length === 2 && attempts[1].statusCode === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(attempts.length, 2, JSON.stringify(attempts));
      const [first, second] = attempts;
      assert.deepEqual([first.attempt, first.statusCode, first.error], [1, 500, null]);
      assert.ok(first.durationMs >= 0);
      assert.ok(first.nextAttemptAt !== null && Date.parse(first.nextAttemptAt) > Date.parse(first.at));
      assert.deepEqual([second.attempt, second.statusCode, second.error, second.nextAttemptAt], [2, 200, null, null]);
      assert.ok(Date.parse(second.at) >= Date.parse(first.at));

      for (const prefix of ['/API/V2', '/api/v1', '/v2'])
        assert.equal(
          (await call('GET', `${prefix}/download/${jobId}/webhook-attempts`, { key: apiKey })).body.attempts.length,
          2,
        );
      assert.equal(
        (await call('GET', `/api/v2/download/${jobId}/webhook-attempts`, { key: other.apiKey })).status,
        404,
      );
      assert.equal((await call('GET', `/api/v2/download/${jobId}/webhook-attempts`)).status, 401);
    });

    it("tells a client only that its receiver was unreachable, however the attempt failed, so no answer maps the service's network", async () => {
      const { apiKey } = await service.createAccount();
      const failing = {
        address_refused: 'http://hooks.example.com/hook',
        dns: 'http://missing.example.com/hook',
        connection_refused: `http://127.0.0.1:${await closedTcpPort()}/hook`,
      };
      const store = service.service.container.resolve<EventStore>(TOKENS.eventStore);
      for (const [exact, webhookUrl] of Object.entries(failing)) {
        const jobId = await submit(apiKey, `unreachable-${exact.replace('_', '-')}`, webhookUrl);
        assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey })).status, 200);
        const deadline = Date.now() + 30_000;
        let failed: any[] = [];
        while (Date.now() < deadline) {
          const response = await call('GET', `/api/v2/download/${jobId}/webhook-attempts`, { key: apiKey });
          failed = response.body.attempts.filter((attempt: any) => attempt.error !== null);
          if (failed.length >= 2) break;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        assert.ok(failed.length >= 2, `${exact}: ${JSON.stringify(failed)}`);
        for (const attempt of failed)
          assert.deepEqual(
            [attempt.statusCode, attempt.error],
            [null, 'unreachable'],
            `${exact}: ${JSON.stringify(attempt)}`,
          );
        // The operator's record keeps the exact class.
        const recorded = (await store.readStream(`download-${jobId}`)).filter(
          (event) => event.type === 'WebhookAttemptFailed',
        );
        assert.ok(recorded.length >= 2);
        for (const event of recorded) assert.equal((event.data as { errorClass: string }).errorClass, exact);
      }
    });

    it('answers an empty list for a job without a webhook and 404 for an unknown job', async () => {
      const { apiKey } = await service.createAccount();
      const jobId = await submit(apiKey, 'plain');
      assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey })).status, 200);
      assert.deepEqual((await call('GET', `/api/v2/download/${jobId}/webhook-attempts`, { key: apiKey })).body, {
        attempts: [],
      });
      assert.equal((await call('GET', '/api/v2/download/no-such-job/webhook-attempts', { key: apiKey })).status, 404);
      assert.equal(
        (await call('GET', `/api/v2/download/${'%00'.repeat(3)}/webhook-attempts`, { key: apiKey })).status,
        404,
      );
    });
  });
}
