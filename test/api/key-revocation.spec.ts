import assert from 'node:assert/strict';
import type { Knex } from 'knex';
import pg from 'pg';
import { AccountAdministration } from '../../application/accounts/account-administration.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import { KeyRevocationNotices } from '../../infrastructure/security/key-revocation-notices.js';
import { API_KEY_REVOCATIONS_CHANNEL } from '../../projections/accounts-projection.js';
import { apiClient } from '../support/api-client.js';
import { EventStreamClient } from '../support/event-stream-client.js';
import { submitQuietJob } from '../support/quiet-job.js';
import { listeningPorts } from '../support/tcp-keep-alive.js';
import { type TestService, startTestService } from '../support/test-service.js';

for (const embedded of [false, true])
  describe(`HTTP: a revoked key with keys cached in memory (${embedded ? 'embedded' : 'server'} mode)`, function () {
    this.timeout(60_000);
    let service: TestService;
    let call: ReturnType<typeof apiClient>;

    before(async () => {
      // A long TTL, so only the revocation's notification can take the key out of the cache in time.
      service = await startTestService({
        roles: ['api', 'projector'],
        label: 'key_revocation',
        embedded,
        env: { API_KEY_CACHE_TTL_SECONDS: '3600' },
      });
      call = apiClient(service.url);
    });
    after(async () => service?.stop());

    // The notice reaches the process on its LISTEN connection a moment after the projection commits, in no fixed
    // order with the other connections' answers; the spec waits for it, not for the row.
    it('is refused on the very next request once the process hears the revocation', async () => {
      const admin = service.service.container.resolve(AccountAdministration);
      const notices = service.service.container.resolve(KeyRevocationNotices);
      const { accountId, apiKey } = await service.createAccount();
      const second = await admin.issueKey(accountId);
      await service.settle();
      assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
      assert.equal((await call('GET', '/api/v2/me', { key: second.apiKey })).status, 200);
      assert.equal((await call('GET', '/api/v2/me', { key: second.apiKey })).status, 200);

      const heard = new Promise<void>((resolve) => {
        const stop = notices.subscribe((keyId) => {
          if (keyId !== second.keyId) return;
          stop();
          resolve();
        });
      });
      await admin.revokeKey(accountId, second.keyId);
      await heard;

      assert.equal((await call('GET', '/api/v2/me', { key: second.apiKey })).status, 401);
      assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200, 'the account keeps its other key');
    });

    const watch = async (jobId: string, apiKey: string) => {
      const stream = await EventStreamClient.open(`${service.api}/download/${jobId}/events`, {
        Authorization: `Bearer ${apiKey}`,
      });
      assert.equal(stream.response.status, 200);
      await stream.waitFor('the first event', () => stream.events[0]);
      return stream;
    };

    it('closes the event streams of a revoked key at once, and sends them nothing more', async () => {
      const admin = service.service.container.resolve(AccountAdministration);
      const { accountId, apiKey } = await service.createAccount();
      const second = await admin.issueKey(accountId);
      await service.settle();
      const jobId = await submitQuietJob(service, accountId);
      const kept = await watch(jobId, apiKey);
      const revoked = await watch(jobId, second.apiKey);
      try {
        await admin.revokeKey(accountId, second.keyId);
        // Well under the job's life: the stream ends because its key did, not because its job did.
        await revoked.waitFor('the revoked key’s stream to end', () => (revoked.ended ? true : undefined), 10_000);
        assert.deepEqual(
          revoked.bodies().map((body) => body.status),
          ['IN_QUEUE'],
        );
        assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey })).status, 200);
        await kept.waitFor('the other key’s stream to get the failed body', () =>
          kept.bodies().find((body) => body.status === 'FAILED'),
        );
        assert.equal(revoked.events.length, 1, 'nothing reached the revoked key after its revocation');
      } finally {
        kept.close();
        revoked.close();
      }
    });

    it('sends no last body to a stream whose key was revoked unheard, and closes it', async () => {
      const admin = service.service.container.resolve(AccountAdministration);
      const db = service.service.container.resolve<Knex>(TOKENS.database);
      const { accountId, apiKey } = await service.createAccount();
      const second = await admin.issueKey(accountId);
      await service.settle();
      const jobId = await submitQuietJob(service, accountId);
      const stream = await watch(jobId, second.apiKey);
      try {
        // Behind the projection's back, so no notification comes: as when the listening connection was down.
        await db('api_keys').where('key_id', second.keyId).update({ revoked_at: new Date().toISOString() });
        assert.equal((await call('DELETE', `/api/v2/download/${jobId}`, { key: apiKey })).status, 200);
        await stream.waitFor('the stream to end', () => (stream.ended ? true : undefined), 10_000);
        assert.deepEqual(
          stream.bodies().map((body) => body.status),
          ['IN_QUEUE'],
          'the FAILED body is not sent to a revoked key',
        );
      } finally {
        stream.close();
      }
    });

    if (!embedded)
      it('closes the streams of a key revoked while no revocation could be heard, once it listens again', async () => {
        const admin = service.service.container.resolve(AccountAdministration);
        const db = service.service.container.resolve<Knex>(TOKENS.database);
        const database = service.database;
        assert.ok(database !== null);
        const { accountId, apiKey } = await service.createAccount();
        const second = await admin.issueKey(accountId);
        await service.settle();
        const jobId = await submitQuietJob(service, accountId);
        const kept = await watch(jobId, apiKey);
        const revoked = await watch(jobId, second.apiKey);
        const superuser = new pg.Client({ connectionString: database.url });
        await superuser.connect();
        const listening = () => listeningPorts(superuser, database.name, API_KEY_REVOCATIONS_CHANNEL);
        try {
          const [port] = await listening();
          assert.ok(port !== undefined, 'the api listens for revocations');
          await superuser.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE client_port = $1', [
            port,
          ]);
          // Revoked behind the projection's back, so no notice is sent: as one sent while nothing listened is lost.
          await db('api_keys').where('key_id', second.keyId).update({ revoked_at: new Date().toISOString() });
          await revoked.waitFor('the stream to end after the listener is back', () =>
            revoked.ended ? true : undefined,
          );
          assert.ok(
            (await listening()).some((other) => other !== port),
            'a new connection listens',
          );
          assert.equal(kept.ended, false, 'the stream of the key still active stays open');
          assert.deepEqual(
            revoked.bodies().map((body) => body.status),
            ['IN_QUEUE'],
          );
        } finally {
          kept.close();
          revoked.close();
          await superuser.end();
        }
      });

    it('answers a key it has seen from memory', async () => {
      const db = service.service.container.resolve<Knex>(TOKENS.database);
      const { apiKey, accountId } = await service.createAccount();
      assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
      // Behind the projection's back: only a request that never reads the key row still succeeds.
      await db('api_keys').where('account_id', accountId).delete();
      assert.equal((await call('GET', '/api/v2/me', { key: apiKey })).status, 200);
    });
  });
