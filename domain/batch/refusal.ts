import type { DownloadErrorCode } from '../download-error-code.js';

/**
 * Why a video of a batch got no job: the account's credit ran out, the
 * account is suspended or closed, the submission broke a rule (a live stream
 * in progress, a video longer than the plan allows), or the platform refuses
 * the video for good.
 */
export type BatchRefusalCode = 'CREDIT_LIMIT_REACHED' | 'ACCOUNT_REFUSED' | 'RULE_VIOLATION' | DownloadErrorCode;

export interface BatchRefusal {
  code: BatchRefusalCode;
  /** What a single submission of the video would have answered, in the contract's words. */
  message: string;
}

/** The contract's own answer when the credit is used up; every video still waiting ends with it too. */
export const CREDIT_LIMIT_REFUSAL: BatchRefusal = { code: 'CREDIT_LIMIT_REACHED', message: 'Credit limit reached' };

/** A refusal that credit (or a reactivation) can lift: a retry of the batch submits its video again. */
export function isRetryableRefusal(refusal: BatchRefusal): boolean {
  return refusal.code === 'CREDIT_LIMIT_REACHED' || refusal.code === 'ACCOUNT_REFUSED';
}
