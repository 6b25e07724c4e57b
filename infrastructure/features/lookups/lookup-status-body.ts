import type { LookupJobView } from '../../../application/lookups/lookup-job-view.js';

/**
 * The body of `GET /info/{jobId}` and `GET /client-download/{jobId}`: one of
 * three shapes selected by status. Only info jobs report `errorCode`.
 */
export function lookupStatusBody(view: LookupJobView): Record<string, unknown> {
  switch (view.status) {
    case 'pending':
      return { jobId: view.jobId, status: 'pending' };
    case 'success':
      return { jobId: view.jobId, status: 'success', result: view.result };
    case 'failed': {
      const body: Record<string, unknown> = {
        jobId: view.jobId,
        status: 'failed',
        error: view.error ?? 'The lookup failed',
      };
      if (view.kind === 'info' && view.errorCode !== null) body.errorCode = view.errorCode;
      return body;
    }
  }
}
