import { sleep } from './sleep.js';

/** Whether `work` settles within `timeoutMs`; the timer is cleared as soon as it does. */
export async function settlesWithin(work: Promise<unknown>, timeoutMs: number): Promise<boolean> {
  const stopWaiting = new AbortController();
  const timedOut = sleep(timeoutMs, stopWaiting.signal).then(() => false);
  const settled = await Promise.race([work.then(() => true), timedOut]);
  stopWaiting.abort();
  return settled;
}
