import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { CommandHandler } from '../../../application/command-handler.js';
import { lookUpClientDownloadLinks } from '../../../application/lookups/look-up-client-download-links.js';
import { lookUpVideoInfo } from '../../../application/lookups/look-up-video-info.js';
import { type LookupJobSteps, lookupJobSteps } from '../../../application/lookups/lookup-job-steps.js';
import { SubmitLookupJob } from '../../../application/lookups/submit-lookup-job.js';
import type { Clock } from '../../../application/ports/clock.js';
import { ReleaseOrphanedLookup } from '../../../application/processes/release-orphaned-lookup.js';
import { routeEventToWork } from '../../../application/processes/work-routing.js';
import { ACCOUNT_CATEGORY, accountDecider } from '../../../domain/account/decider.js';
import {
  CLIENT_DOWNLOAD_JOB,
  CLIENT_DOWNLOAD_JOB_CATEGORY,
  clientDownloadJobDecider,
} from '../../../domain/lookup-job/client-download-job.js';
import { JobAbandonedError } from '../../../domain/errors.js';
import { INFO_JOB, INFO_JOB_CATEGORY, infoJobDecider } from '../../../domain/lookup-job/info-job.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { ScriptedExtractor } from '../../support/scripted-extractor.js';
import { givenAccount } from '../../support/givens/given-account.js';

/** Nothing scripted: these lookups are never run. */
const noExtractor = new ScriptedExtractor();

describe('releasing an orphaned lookup reservation against a slow submission', () => {
  const ids = new RandomIds();
  const graceMs = 60_000;
  let nowMs = Date.parse('2026-03-01T00:00:00Z');
  const clock: Clock = { now: () => new Date(nowMs) };
  const at = () => new Date(nowMs).toISOString();

  async function setUp() {
    const store = new InMemoryEventStore();
    const accounts = new CommandHandler(store, accountDecider, ACCOUNT_CATEGORY, ids);
    const infoJobs = new CommandHandler(store, infoJobDecider, INFO_JOB_CATEGORY, ids);
    const clientJobs = new CommandHandler(store, clientDownloadJobDecider, CLIENT_DOWNLOAD_JOB_CATEGORY, ids);
    const steps = {
      info: lookupJobSteps(INFO_JOB, infoJobs, lookUpVideoInfo(noExtractor)),
      client_download: lookupJobSteps(CLIENT_DOWNLOAD_JOB, clientJobs, lookUpClientDownloadLinks(noExtractor)),
    };
    const accountId = await givenAccount(store, { addOns: ['client_download'], now: at() });
    const requestInfo = (jobId: string) =>
      infoJobs.handle(jobId, {
        type: 'RequestInfo',
        data: {
          jobId,
          accountId,
          url: 'https://www.youtube.com/watch?v=v',
          includeAudioTracks: false,
          expiresAt: at(),
          now: at(),
        },
      });
    const requestClientDownload = (jobId: string) =>
      clientJobs.handle(jobId, {
        type: 'RequestClientDownload',
        data: {
          jobId,
          accountId,
          url: 'https://www.instagram.com/reel/C0abc/',
          platform: 'photo-sharing',
          expiresAt: at(),
          now: at(),
        },
      });
    const pending = async () =>
      ((await accounts.load(accountId)).state.pendingLookups ?? []).map((lookup) => lookup.lookupId);
    const releaser = (jobs = steps) =>
      new ReleaseOrphanedLookup(accounts, clock, { graceMs, listingTimeoutMs: 300_000, jobs });
    return {
      store,
      accounts,
      infoJobs,
      clientJobs,
      steps,
      accountId,
      requestInfo,
      requestClientDownload,
      pending,
      releaser,
    };
  }

  const kinds = [
    { feature: 'info' as const, stream: 'info', abandoned: 'InfoAbandoned', request: 'requestInfo' as const },
    {
      feature: 'client_download' as const,
      stream: 'clientdownload',
      abandoned: 'ClientDownloadAbandoned',
      request: 'requestClientDownload' as const,
    },
  ];

  for (const kind of kinds) {
    describe(`${kind.stream}-<jobId>`, () => {
      async function reserved() {
        const world = await setUp();
        const jobId = randomUUID();
        const reservedAt = at();
        await world.accounts.handle(world.accountId, {
          type: 'ReserveLookup',
          data: { lookupId: jobId, feature: kind.feature, units: 1, subject: 'u', now: reservedAt },
        });
        nowMs += 2 * graceMs;
        return { ...world, jobId, message: { jobId, accountId: world.accountId, occurredAt: reservedAt } };
      }

      it("keeps the reservation when the job is written between the releaser's look and its release", async () => {
        const world = await reserved();
        const { steps, jobId } = world;
        // The submission's job append lands right after the releaser found no job.
        const racing: Record<typeof kind.feature, Pick<LookupJobSteps<unknown>, 'load' | 'abandon'>> = { ...steps };
        racing[kind.feature] = {
          load: async (id) => {
            const loaded = await steps[kind.feature].load(id);
            await world[kind.request](jobId);
            return loaded;
          },
          abandon: steps[kind.feature].abandon,
        };
        assert.deepEqual(await world.releaser(racing as typeof steps).handle(world.message), { kind: 'done' });
        assert.deepEqual(await world.pending(), [jobId], 'the job that now exists keeps its reservation');
        assert.equal((await steps[kind.feature].load(jobId)).status, 'pending');
      });

      it('abandons the job stream first, so a submission arriving afterwards fails cleanly instead of running unreserved', async () => {
        const world = await reserved();
        const { store, jobId } = world;
        await world.releaser().handle(world.message);
        assert.deepEqual(await world.pending(), []);
        assert.deepEqual(
          (await store.readStream(`${kind.stream}-${jobId}`)).map((event) => event.type),
          [kind.abandoned],
        );
        await assert.rejects(world[kind.request](jobId), JobAbandonedError);
        // A redelivery releases nothing twice and writes nothing more.
        await world.releaser().handle(world.message);
        assert.equal((await store.readStream(`${kind.stream}-${jobId}`)).length, 1);
      });

      it('records the abandonment and the release as caused by the reservation, in its correlation', async () => {
        const world = await reserved();
        const account = await world.store.readStream(`account-${world.accountId}`);
        const reservation = account[account.length - 1];
        const [work] = routeEventToWork(reservation);
        // The store stamps events with the wall clock; the releaser goes by the test's.
        await world.releaser().handle({ ...work.payload, occurredAt: world.message.occurredAt });
        const [abandoned] = await world.store.readStream(`${kind.stream}-${world.jobId}`);
        const released = (await world.store.readStream(`account-${world.accountId}`)).find(
          (event) => event.type === 'LookupReleased',
        );
        for (const event of [abandoned, released]) {
          assert.equal(event?.metadata.causationId, reservation.id);
          assert.equal(event?.metadata.correlationId, reservation.metadata.correlationId);
        }
      });
    });
  }

  it('answers a submission slower than the grace period with the abandonment, leaving nothing reserved', async () => {
    const world = await setUp();
    const submit = new SubmitLookupJob<null>({
      feature: 'info',
      accounts: world.accounts,
      createJob: async (job, context) => {
        // The submission stalls between its reservation and its job; the releaser runs meanwhile.
        nowMs += 2 * graceMs;
        await world.releaser().handle({ jobId: job.jobId, accountId: job.accountId, occurredAt: job.now });
        return world.infoJobs.handle(
          job.jobId,
          {
            type: 'RequestInfo',
            data: {
              jobId: job.jobId,
              accountId: job.accountId,
              url: job.url,
              includeAudioTracks: false,
              expiresAt: job.expiresAt,
              now: job.now,
            },
          },
          context,
        );
      },
      ids,
      clock,
      lifetimeMs: 3_600_000,
    });
    await assert.rejects(
      submit.execute({ accountId: world.accountId, url: 'https://www.youtube.com/watch?v=v', details: null }),
      JobAbandonedError,
    );
    const { state } = await world.accounts.load(world.accountId);
    assert.deepEqual([state.pendingLookups, state.usage.info], [[], 0]);
  });
});
