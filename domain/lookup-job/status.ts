import { InvalidTransitionError } from '../errors.js';

/** The states of info and client-download jobs: created pending, ending in success or failed, both final. */
export type LookupJobStatus = 'pending' | 'success' | 'failed';

/**
 * Whether a job in `current` moves to the final state `target`. Workers
 * deliver at least once, so reaching the state the job is already in is a
 * no-op (false); leaving a final state for the other one is refused.
 */
export function finishesLookupJob(
  jobId: string,
  current: LookupJobStatus,
  target: Exclude<LookupJobStatus, 'pending'>,
): boolean {
  if (current === target) return false;
  if (current !== 'pending') throw new InvalidTransitionError(`Job ${jobId} is ${current} and cannot become ${target}`);
  return true;
}
