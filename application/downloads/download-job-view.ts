import type { DownloadJobState } from '../../domain/download-job/state.js';
import type { DownloadJobView } from '../ports/read-models.js';

/** The polling view of a job folded straight from its stream. */
export function downloadJobViewFromState(state: DownloadJobState): DownloadJobView | null {
  if (state.status === 'NONE' || state.status === 'ABANDONED') return null;
  const { request, result } = state;
  return {
    jobId: request.jobId,
    accountId: request.accountId,
    status: state.status,
    url: request.url,
    format: request.format,
    language: request.language,
    title: request.title,
    duration: request.duration,
    webhookUrl: request.webhookUrl,
    actualFormat: result?.actualFormat ?? null,
    fileKey: result?.fileKey ?? null,
    fileSize: result?.fileSize ?? null,
    fileExtension: result?.fileExtension ?? null,
    errorCode: state.errorCode,
    createdAt: request.requestedAt,
    startedAt: state.startedAt,
    completedAt: state.completedAt,
  };
}
