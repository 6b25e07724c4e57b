import { batchDecider } from '../../../../domain/batch/decider.js';
import type { BatchEvent } from '../../../../domain/batch/events.js';
import { InvalidTransitionError, NotFoundError, RuleViolationError } from '../../../../domain/errors.js';
import { deciderSpecification } from '../../../support/decider-specification.js';
import {
  accountId,
  batchId,
  finished,
  listed,
  listedVideos,
  requestBatch,
  requested,
  t0,
  t1,
  t2,
  video,
} from '../batch-examples.js';

const spec = deciderSpecification(batchDecider);
const recordListing = (videos: { videoUrl: string; title: string | null }[], listingUnits = 1) =>
  ({ type: 'RecordListing', data: { batchId, videos, listingUnits, now: t1 } }) as const;

describe('batch decider: the request and the listing', () => {
  it('RequestBatch of a playlist requests it; the same request again does nothing, another batch under its id is refused', () => {
    spec.given([]).when(requestBatch()).then([requested()]);
    spec.given([requested()]).when(requestBatch()).thenNothingHappened();
    spec
      .given([{ ...requested(), data: { ...requested().data, batchId: 'batch-0' } } as BatchEvent])
      .when(requestBatch())
      .thenThrows(InvalidTransitionError);
  });

  it('a batch of URLs is listed at once, each video once in the order given, and its listing costs nothing', () => {
    const source = { kind: 'urls' as const, urls: [video(2), video(1), video(2), video(3)] };
    spec
      .given([])
      .when(requestBatch(source))
      .then([
        requested(source),
        {
          type: 'BatchListed',
          data: {
            batchId,
            accountId,
            videos: [video(2), video(1), video(3)].map((videoUrl) => ({ videoUrl, title: null })),
            listingUnits: 0,
            listedAt: t0,
          },
        },
      ]);
  });

  it('refuses maxVideos outside 1-500 and a list of URLs empty or over 500, naming the field', () => {
    for (const maxVideos of [0, 501, 2.5]) {
      spec
        .given([])
        .when(requestBatch(undefined, maxVideos))
        .thenThrows(RuleViolationError, (error) => {
          if (!error.message.startsWith('maxVideos ')) throw error;
        });
    }
    for (const count of [0, 501]) {
      const urls = Array.from({ length: count }, (_, index) => video(index));
      spec
        .given([])
        .when(requestBatch({ kind: 'urls', urls }))
        .thenThrows(RuleViolationError, (error) => {
          if (!error.message.startsWith('urls ')) throw error;
        });
    }
  });

  it('RecordListing records the videos found, each once, at most maxVideos, with the units charged; again, nothing', () => {
    const found = [...listedVideos(3), listedVideos(1)[0], ...listedVideos(5).slice(3)];
    spec
      .given([requested(undefined, 4)])
      .when(recordListing(found, 1))
      .then([
        {
          type: 'BatchListed',
          data: { batchId, accountId, videos: listedVideos(4), listingUnits: 1, listedAt: t1 },
        },
      ]);
    spec
      .given([requested(), listed(3)])
      .when(recordListing(listedVideos(3)))
      .thenNothingHappened();
  });

  it('a listing that finds no video finishes the batch completed at once', () => {
    spec
      .given([requested()])
      .when(recordListing([], 0))
      .then([
        { type: 'BatchListed', data: { batchId, accountId, videos: [], listingUnits: 0, listedAt: t1 } },
        finished('completed', {}, 1, t1),
      ]);
  });

  it('a listing that fails finishes the batch failed, once; a failure after the listing is refused', () => {
    const fail = {
      type: 'FailListing' as const,
      data: { batchId, errorCode: 'VIDEO_NOT_FOUND' as const, reason: 'This playlist does not exist.', now: t2 },
    };
    const listingFailed: BatchEvent = {
      type: 'BatchListingFailed',
      data: { batchId, accountId, errorCode: 'VIDEO_NOT_FOUND', reason: 'This playlist does not exist.', failedAt: t2 },
    };
    spec
      .given([requested()])
      .when(fail)
      .then([listingFailed, finished('failed', {})]);
    spec
      .given([requested(), listingFailed, finished('failed', {})])
      .when(fail)
      .thenNothingHappened();
    spec
      .given([requested(), listed(2)])
      .when(fail)
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested(), listingFailed, finished('failed', {})])
      .when(recordListing(listedVideos(1)))
      .thenNothingHappened();
  });

  it('refuses every command but the request on a batch that does not exist', () => {
    spec
      .given([])
      .when(recordListing(listedVideos(1)))
      .thenThrows(NotFoundError);
    spec
      .given([])
      .when({ type: 'CancelBatch', data: { batchId, now: t1 } })
      .thenThrows(NotFoundError);
  });
});
