import { RuleViolationError } from '../errors.js';

/** A channel or playlist, already checked against the platform's URL forms. */
export type SubscriptionSource = { kind: 'channel'; url: string } | { kind: 'playlist'; url: string };

/**
 * Which videos the subscription takes: `new`, only those that appear after
 * its first check; `latest`, also the `count` newest its first check finds.
 */
export type SubscriptionStart = { kind: 'new' } | { kind: 'latest'; count: number };

export const MIN_CHECK_EVERY_MINUTES = 15;
export const DEFAULT_CHECK_EVERY_MINUTES = 60;
/** A week: beyond it a subscription is better deleted and made again. */
export const MAX_CHECK_EVERY_MINUTES = 7 * 24 * 60;
/** The most videos `latest:N` takes: what one listing of a batch takes. */
export const MAX_LATEST_COUNT = 500;

export function checkInterval(minutes: number): void {
  if (!Number.isInteger(minutes) || minutes < MIN_CHECK_EVERY_MINUTES || minutes > MAX_CHECK_EVERY_MINUTES)
    throw new RuleViolationError(
      `checkEveryMinutes must be a whole number of minutes from ${MIN_CHECK_EVERY_MINUTES} to ${MAX_CHECK_EVERY_MINUTES}`,
    );
}

export function checkStart(start: SubscriptionStart): void {
  if (start.kind === 'latest' && (!Number.isInteger(start.count) || start.count < 1 || start.count > MAX_LATEST_COUNT))
    throw new RuleViolationError(`start must be "new" or "latest:N" with N from 1 to ${MAX_LATEST_COUNT}`);
}
