/**
 * How often a wait or a long step says it is alive. A beat only sets a flag
 * the work queue reads when it next extends the ack wait (at most every third
 * of it), so beating often costs nothing and leaves room under the shortest
 * ack wait start-up allows (WEBHOOK_TIMEOUT_MS + 2 s).
 */
const BEAT_EVERY_MS = 250;

/**
 * `work`'s own outcome; meanwhile `beat` is called at once and every
 * `everyMs` until it settles, so the queue keeps the message with a handler
 * that waits (its turn, a back-off) or works without reporting progress.
 */
export async function beatWhile<T>(
  work: Promise<T>,
  beat: (() => void) | undefined,
  everyMs = BEAT_EVERY_MS,
): Promise<T> {
  if (beat === undefined) return work;
  beat();
  const timer = setInterval(beat, everyMs);
  try {
    return await work;
  } finally {
    clearInterval(timer);
  }
}
