import { batchDecider } from '../../../../domain/batch/decider.js';
import type { BatchEvent } from '../../../../domain/batch/events.js';
import { InvalidTransitionError, NotFoundError } from '../../../../domain/errors.js';
import { deciderSpecification } from '../../../support/decider-specification.js';
import {
  accountId,
  admit,
  admitted,
  batchId,
  finished,
  listed,
  refuseForCredit,
  refusedForCredit,
  requested,
  settled,
  t2,
  video,
} from '../batch-examples.js';

const spec = deciderSpecification(batchDecider);
const privateVideo = { code: 'PRIVATE_VIDEO' as const, message: 'This video is private' };

describe('batch decider: admission', () => {
  it('admits the waiting videos in listing order, one per free slot, each under the next job id', () => {
    spec
      .given([requested(), listed(5)])
      .when(admit(2, ['job-1', 'job-2', 'job-3']))
      .then([admitted(1), admitted(2)]);
    spec
      .given([requested(), listed(5)])
      .when(admit(5, ['job-1']))
      .then([admitted(1)]);
  });

  it('admits nothing without a free slot, before the listing, or when no video waits', () => {
    spec
      .given([requested(), listed(3)])
      .when(admit(0, ['job-1']))
      .thenNothingHappened();
    spec
      .given([requested(), listed(3)])
      .when(admit(-4, ['job-1']))
      .thenNothingHappened();
    spec
      .given([requested()])
      .when(admit(3, ['job-1']))
      .thenNothingHappened();
    spec
      .given([requested(), listed(2), admitted(1), admitted(2)])
      .when(admit(3, ['job-3']))
      .thenNothingHappened();
  });

  it('never admits a video twice: the next admission takes the next waiting video', () => {
    spec
      .given([requested(), listed(3), admitted(1), settled(1)])
      .when(admit(3, ['job-2', 'job-3', 'job-4']))
      .then([admitted(2), admitted(3)]);
  });

  it('refuses a job id the batch already gave, or one given twice', () => {
    spec
      .given([requested(), listed(3), admitted(1)])
      .when(admit(1, ['job-1']))
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested(), listed(3)])
      .when(admit(2, ['job-9', 'job-9']))
      .thenThrows(InvalidTransitionError);
  });

  it('a refusal for credit ends the admitted video and every waiting one refused, and the batch partial', () => {
    spec
      .given([requested(), listed(4), admitted(1), settled(1), admitted(2)])
      .when(refuseForCredit(2))
      .then([
        refusedForCredit(2, 'job-2'),
        refusedForCredit(3),
        refusedForCredit(4),
        finished('partial', { completed: 1, refused: 3 }),
      ]);
  });

  it('a refusal for credit leaves other running jobs to end on their own', () => {
    spec
      .given([requested(), listed(3), admitted(1), admitted(2)])
      .when(refuseForCredit(2))
      .then([refusedForCredit(2, 'job-2'), refusedForCredit(3)]);
  });

  it('another refusal ends only its own video; a refusal repeated changes nothing', () => {
    const refusal: BatchEvent = {
      type: 'BatchVideoRefused',
      data: { batchId, accountId, videoUrl: video(1), jobId: 'job-1', ...privateVideo, refusedAt: t2 },
    };
    const refuse = { type: 'RefuseVideo' as const, data: { batchId, videoUrl: video(1), ...privateVideo, now: t2 } };
    spec
      .given([requested(), listed(2), admitted(1)])
      .when(refuse)
      .then([refusal]);
    spec
      .given([requested(), listed(2), admitted(1), refusal])
      .when(refuse)
      .thenNothingHappened();
  });

  it('refuses a refusal of a video that ended otherwise, or that the batch does not hold', () => {
    spec
      .given([requested(), listed(2), admitted(1), settled(1)])
      .when(refuseForCredit(1))
      .thenThrows(InvalidTransitionError);
    spec
      .given([requested(), listed(2)])
      .when(refuseForCredit(7))
      .thenThrows(NotFoundError);
  });
});
