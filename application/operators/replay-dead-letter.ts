import { InvalidTransitionError, NotFoundError } from '../../domain/errors.js';
import type { Clock } from '../ports/clock.js';
import type { DeadLetterStore } from '../ports/operations-status.js';
import type { WorkQueue } from '../ports/work-queue.js';

/**
 * Puts a dead letter's message back on its subject, for a worker to take again: the handlers decide on the job's
 * current state, so a job the reconciler already ended stays as it is. A letter is replayed once; its message id is
 * derived from the letter, so a replay retried after a crash adds nothing to the queue.
 */
export class ReplayDeadLetter {
  constructor(
    private readonly letters: DeadLetterStore,
    private readonly queue: Pick<WorkQueue, 'requeue'>,
    private readonly clock: Clock,
  ) {}

  async execute(id: string): Promise<{ id: string; subject: string; replayedAt: string }> {
    const letter = await this.letters.get(id);
    if (letter === null) throw new NotFoundError('Dead letter not found');
    if (letter.subject === null || letter.body === null)
      throw new InvalidTransitionError('This dead letter kept no message to replay');
    if (letter.replayedAt !== null)
      throw new InvalidTransitionError(`This dead letter was replayed at ${letter.replayedAt}`);
    await this.queue.requeue(letter.subject, letter.body, `replay-${letter.id}`);
    const now = this.clock.now();
    await this.letters.markReplayed(id, now);
    return { id, subject: letter.subject, replayedAt: now.toISOString() };
  }
}
