import assert from 'node:assert/strict';
import { batchDecider } from '../../../domain/batch/decider.js';
import type { BatchEvent } from '../../../domain/batch/events.js';
import type { BatchState } from '../../../domain/batch/state.js';
import { foldEvents } from '../../support/fold-events.js';
import { InvalidTransitionError, NotFoundError } from '../../../domain/errors.js';
import { deciderSpecification } from '../../support/decider-specification.js';
import {
  admitted,
  allAdmitted,
  finished,
  listed,
  refuseForCredit,
  refusedForCredit,
  requested,
  settle,
  settled,
} from './batch-examples.js';

const spec = deciderSpecification(batchDecider);
const statusAfter = (events: BatchEvent[]) => (foldEvents(batchDecider, events) as BatchState).status;

describe('batch decider: settlement and finish', () => {
  it('records how each job ended; the last one finishes the batch with its counts', () => {
    spec
      .given(allAdmitted(2))
      .when(settle('job-1'))
      .then([settled(1)]);
    spec
      .given([...allAdmitted(2), settled(1)])
      .when(settle('job-2'))
      .then([settled(2), finished('completed', { completed: 2 })]);
  });

  it('finishes partial when some videos did not complete, failed when none did', () => {
    spec
      .given([...allAdmitted(3), settled(1), settled(2, 'failed')])
      .when(settle('job-3', 'cancelled'))
      .then([settled(3, 'cancelled'), finished('partial', { completed: 1, failed: 1, cancelled: 1 })]);
    spec
      .given([...allAdmitted(2), settled(1, 'failed')])
      .when(settle('job-2', 'failed'))
      .then([settled(2, 'failed'), finished('failed', { failed: 2 })]);
  });

  it('finishes once: a settlement repeated, before or after the finish, changes nothing', () => {
    spec
      .given([...allAdmitted(2), settled(1)])
      .when(settle('job-1'))
      .thenNothingHappened();
    spec
      .given([...allAdmitted(1), settled(1), finished('completed', { completed: 1 })])
      .when(settle('job-1'))
      .thenNothingHappened();
  });

  it('does not finish while a video waits for a slot', () => {
    spec
      .given([requested(), listed(2), admitted(1)])
      .when(settle('job-1'))
      .then([settled(1)]);
  });

  it('a refusal of the last open video finishes the batch', () => {
    spec
      .given([...allAdmitted(2), settled(1)])
      .when(refuseForCredit(2))
      .then([refusedForCredit(2, 'job-2'), finished('partial', { completed: 1, refused: 1 })]);
  });

  it('refuses a job the batch never admitted, and the settlement of a refused one', () => {
    spec.given(allAdmitted(1)).when(settle('job-9')).thenThrows(NotFoundError);
    spec
      .given([...allAdmitted(1), refusedForCredit(1, 'job-1')])
      .when(settle('job-1'))
      .thenThrows(InvalidTransitionError);
  });

  it('is pending until a video is admitted, running until it finishes, then as it finished', () => {
    assert.equal(statusAfter([requested()]), 'pending');
    assert.equal(statusAfter([requested(), listed(2)]), 'pending');
    assert.equal(statusAfter([requested(), listed(2), admitted(1)]), 'running');
    assert.equal(statusAfter([...allAdmitted(1), settled(1), finished('completed', { completed: 1 })]), 'completed');
  });
});
