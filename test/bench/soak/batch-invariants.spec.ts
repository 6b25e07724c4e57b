import assert from 'node:assert/strict';
import { checkBatches } from '../../../bench/soak/batch-invariants.js';
import { JobLedger } from '../../../bench/soak/job-ledger.js';
import type { SeenBatchVideo, TrackedBatch } from '../../../bench/soak/tracked-batch.js';

const URLS = ['https://video.test/watch?v=a', 'https://video.test/watch?v=b'];

function batch(status: string | null, seen: SeenBatchVideo[], batchId = 'batch-1'): TrackedBatch {
  return {
    batchId,
    accountId: 'account-1',
    key: 'vds_soak-key',
    videos: URLS.map((url) => ({ url, expected: 'success' as const })),
    webhook: null,
    submittedAt: 1_000_000,
    status,
    seen,
  };
}

const completed = (url: string, jobId: string): SeenBatchVideo => ({
  videoUrl: url,
  status: 'completed',
  jobId,
  refusal: null,
});
const refused: SeenBatchVideo = {
  videoUrl: URLS[1],
  status: 'refused',
  jobId: null,
  refusal: { code: 'CREDIT_LIMIT_REACHED', message: 'Credit limit reached' },
};

describe('soak batch invariants', () => {
  it('hold for a finished batch whose videos each have one job or one refusal', () => {
    assert.deepEqual(checkBatches([batch('completed', [completed(URLS[0], 'j1'), completed(URLS[1], 'j2')])]), []);
    assert.deepEqual(checkBatches([batch('partial', [completed(URLS[0], 'j1'), refused])]), []);
  });

  it('break for a batch not finished, a video missing or twice, and a video with neither job nor refusal', () => {
    assert.match(checkBatches([batch('running', [])])[0], /batch-1 still running after the quiet period/);
    assert.match(checkBatches([batch('partial', [completed(URLS[0], 'j1')])])[0], /shows 1 videos for the 2 distinct/);
    const twice = batch('completed', [completed(URLS[0], 'j1')]);
    twice.videos = [twice.videos[0], twice.videos[0]];
    assert.deepEqual(checkBatches([twice]), [], 'a URL given twice is one video');
    const waiting = { videoUrl: URLS[1], status: 'waiting', jobId: null, refusal: null };
    assert.match(
      checkBatches([batch('partial', [completed(URLS[0], 'j1'), waiting])]).join('\n'),
      /ended waiting with no job and no refusal/,
    );
  });

  it('break for a job two videos share, within a batch or across two', () => {
    const shared = checkBatches([
      batch('completed', [completed(URLS[0], 'j1'), completed(URLS[1], 'j2')]),
      batch('completed', [completed(URLS[0], 'j2'), completed(URLS[1], 'j3')], 'batch-2'),
    ]);
    assert.equal(shared.length, 1);
    assert.match(shared[0], /job j2 is also batch batch-1/);
  });

  it('break for a batch called completed with a video that is not', () => {
    const broken = checkBatches([batch('completed', [completed(URLS[0], 'j1'), refused])]);
    assert.match(broken.join('\n'), /completed with videos that are not/);
  });

  it('track each job a batch shows once, with its video’s expectation', () => {
    const ledger = new JobLedger();
    const tracked = batch(null, []);
    tracked.videos[1].expected = 'failure';
    ledger.batches.push(tracked);
    const seen = [completed(URLS[0], 'j1'), { ...completed(URLS[1], 'j2'), status: 'admitted' }];
    ledger.observeBatch(tracked, 'running', seen);
    ledger.observeBatch(tracked, 'running', seen);
    assert.deepEqual(
      ledger.jobs.map((job) => [job.jobId, job.expected]),
      [
        ['j1', 'success'],
        ['j2', 'failure'],
      ],
    );
    assert.equal(ledger.pendingBatches().length, 1);
  });
});
