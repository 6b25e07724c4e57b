import type { DownloadLinks } from '../../../application/ports/download-links.js';
import type { DownloadJobView } from '../../../application/ports/read-models.js';

/**
 * The body of `GET /download/{jobId}` (and, later, of the webhook): one of
 * the spec's three shapes, selected by status.
 */
export function downloadStatusBody(view: DownloadJobView, links: DownloadLinks, now: Date): Record<string, unknown> {
  const body: Record<string, unknown> = {
    jobId: view.jobId,
    status: view.status,
    url: view.url,
    format: view.format,
    language: view.language,
    title: view.title,
    duration: view.duration,
    createdAt: view.createdAt,
    startedAt: view.startedAt,
    completedAt: view.completedAt,
  };
  if (view.status === 'COMPLETED' && view.fileKey !== null) {
    body.actualFormat = view.actualFormat;
    body.fileSize = view.fileSize;
    body.downloadUrl = links.linkFor({ jobId: view.jobId, fileKey: view.fileKey, filename: downloadFilename(view.title, view.fileExtension), completedAt: view.completedAt }, now);
  }
  if (view.status === 'FAILED' && view.errorCode !== null) body.errorCode = view.errorCode;
  return body;
}

/** The title as a file name: path separators, control and reserved characters dropped, length bounded. */
export function downloadFilename(title: string, extension: string | null): string {
  const base =
    title
      .normalize('NFC')
      .replace(/[\p{Cc}\p{Cf}<>:"/\\|?*]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+/, '')
      .slice(0, 120)
      .trim() || 'download';
  return extension === null ? base : `${base}.${extension}`;
}
