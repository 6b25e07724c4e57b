import type { LookupJobView } from './lookup-job-view.js';

/** How a finished info or client-download job read until it finished: shown while the account's read model does not yet show its charge or release. */
export function lookupJobBeforeSettlement(view: LookupJobView): LookupJobView {
  return { ...view, status: 'pending', result: null, error: null, errorCode: null };
}
