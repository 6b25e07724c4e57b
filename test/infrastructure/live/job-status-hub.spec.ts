import assert from 'node:assert/strict';
import { CommandHandler } from '../../../application/command-handler.js';
import type { DownloadJobCommandHandler } from '../../../application/downloads/download-job-commands.js';
import type { EventStore, Subscription } from '../../../application/ports/event-store.js';
import type { Logger } from '../../../application/ports/logger.js';
import { DOWNLOAD_JOB_CATEGORY, downloadJobDecider } from '../../../domain/download-job/decider.js';
import { InMemoryEventStore } from '../../../infrastructure/event-store/in-memory/in-memory-event-store.js';
import { type JobFrame, JobStatusHub } from '../../../infrastructure/live/job-status-hub.js';
import { createLogger } from '../../../infrastructure/observability/create-logger.js';
import { RandomIds } from '../../../infrastructure/system/random-ids.js';
import { completeJobInProgress, startJobInProgress } from '../../support/job-in-progress.js';
import { waitFor } from '../../support/wait-for.js';

/**
 * The in-memory store, whose subscriptions and head position fail while `down`, as the PostgreSQL store's do when the
 * database drops its connections; appends and stream reads go on, so the job can finish meanwhile.
 */
class DroppingStore {
  readonly store = new InMemoryEventStore();
  /** Asked for the head position: how a follower checks the store answers again. */
  headReads = 0;
  private down = false;
  private readonly onDrop = new Set<() => void>();

  asEventStore(): EventStore {
    const wrapper = Object.create(this.store) as EventStore;
    wrapper.subscribeToAll = (options) => {
      return this.breakable(this.store.subscribeToAll(options));
    };
    wrapper.headPosition = async () => {
      this.headReads += 1;
      if (this.down) throw new Error('Connection terminated unexpectedly');
      return this.store.headPosition();
    };
    return wrapper;
  }

  drop(): void {
    this.down = true;
    for (const dropped of [...this.onDrop]) dropped();
  }

  restore(): void {
    this.down = false;
  }

  /** Rejects at once while down, or at the next drop. */
  private dropped(): Promise<never> {
    return new Promise<never>((_, reject) => {
      const fail = () => {
        this.onDrop.delete(fail);
        reject(new Error('terminating connection due to administrator command'));
      };
      if (this.down) fail();
      else this.onDrop.add(fail);
    });
  }

  private breakable(inner: Subscription): Subscription {
    const dropped = () => this.dropped();
    return {
      close: () => inner.close(),
      async *[Symbol.asyncIterator]() {
        const pages = inner[Symbol.asyncIterator]();
        for (;;) {
          // A drop ends a subscription that waits for news, as a lost LISTEN connection wakes the readers into a failing read.
          const next = await Promise.race([pages.next(), dropped()]);
          if (next.done === true) return;
          yield next.value;
        }
      },
    };
  }
}

const silent: Logger = createLogger('silent');

describe('JobStatusHub: following the job streams through a lost store', () => {
  let dropping: DroppingStore;
  let jobs: DownloadJobCommandHandler;
  let hub: JobStatusHub;

  const startHub = async (loadJobs: DownloadJobCommandHandler = jobs) => {
    hub = new JobStatusHub({
      store: dropping.asEventStore(),
      jobs: loadJobs,
      progressChannel: { publish: async () => undefined, subscribe: () => ({ stop: async () => undefined }) },
      render: (view) => ({ status: view.status }),
      logger: silent,
    });
    await hub.start();
  };
  const watch = async (jobId: string) => {
    const frames: JobFrame[] = [];
    const watching = await hub.watch(jobId, (frame) => frames.push(frame));
    const first = watching.latest();
    if (first !== null) frames.push(first);
    return frames;
  };

  beforeEach(() => {
    dropping = new DroppingStore();
    jobs = new CommandHandler(dropping.store, downloadJobDecider, DOWNLOAD_JOB_CATEGORY, new RandomIds());
  });
  afterEach(async () => hub?.stop());

  it('follows again from where it was after its subscription throws, and is not ready meanwhile', async () => {
    await startHub();
    await startJobInProgress(jobs, 'job-1');
    const frames = await watch('job-1');
    await waitFor(
      'the running frame is sent',
      () => frames.some((frame) => frame.text.includes('IN_PROGRESS')),
      10_000,
    );
    assert.equal(hub.following, true);

    dropping.drop();
    await waitFor('the hub says it cannot follow', () => !hub.following, 10_000);
    // Finished while the hub could not follow: only a follower that picks up where it was hears of it.
    await completeJobInProgress(jobs, 'job-1');
    const readsWhileDown = dropping.headReads;
    await waitFor('it tries to follow again', () => dropping.headReads > readsWhileDown, 10_000);
    assert.equal(hub.following, false, 'still not ready while the store fails');

    dropping.restore();
    const terminal = await waitFor('the terminal frame is sent', () => frames.find((frame) => frame.terminal), 10_000);
    assert.match(terminal.text, /"status":"COMPLETED"/);
    await waitFor('the hub says it follows again', () => hub.following, 10_000);
  });

  it("gives a job's watchers its terminal body when loading the job failed as the change arrived", async () => {
    let failLoads = 0;
    const flaky = Object.create(jobs) as DownloadJobCommandHandler;
    flaky.load = async (id) => {
      if (failLoads > 0) {
        failLoads -= 1;
        throw new Error('Connection terminated unexpectedly');
      }
      return jobs.load(id);
    };
    await startHub(flaky);
    await startJobInProgress(jobs, 'job-2');
    const frames = await watch('job-2');
    await waitFor(
      'the running frame is sent',
      () => frames.some((frame) => frame.text.includes('IN_PROGRESS')),
      10_000,
    );
    failLoads = 2;
    await completeJobInProgress(jobs, 'job-2');
    const terminal = await waitFor('the terminal frame is sent', () => frames.find((frame) => frame.terminal), 10_000);
    assert.match(terminal.text, /"status":"COMPLETED"/);
    assert.equal(failLoads, 0);
  });
});
