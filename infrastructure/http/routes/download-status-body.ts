import type { DownloadLinks } from '../../../application/ports/download-links.js';
import type { DownloadProgress } from '../../../application/ports/download-progress.js';
import type { DownloadJobView } from '../../../application/ports/read-models.js';

/**
 * The body of `GET /download/{jobId}` (and, later, of the webhook): one of
 * the spec's three shapes, selected by status.
 */
export function downloadStatusBody(
  view: DownloadJobView,
  links: DownloadLinks,
  now: Date,
  progress?: DownloadProgress,
): Record<string, unknown> {
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
    body.downloadUrl = links.linkFor(
      {
        jobId: view.jobId,
        fileKey: view.fileKey,
        filename: downloadFilename(view.title, view.fileExtension),
        completedAt: view.completedAt,
      },
      now,
    );
  }
  if (view.status === 'FAILED' && view.errorCode !== null) body.errorCode = view.errorCode;
  // An extension to the pending shape, for running jobs only.
  if (view.status === 'IN_PROGRESS' && progress !== undefined) body.progress = progress;
  return body;
}

/** File names kept for reuse: a completed job is polled many times, and the Unicode clean-up costs more than the rest of a poll's body. */
const RECENT_FILENAMES = 1_000;
const recentFilenames = new Map<string, string>();

/** The title as a file name: path separators, control and reserved characters dropped, length bounded. */
function downloadFilename(title: string, extension: string | null): string {
  const cacheKey = `${extension ?? '\0'}\n${title}`;
  const cached = recentFilenames.get(cacheKey);
  if (cached !== undefined) return cached;
  const base =
    title
      .normalize('NFC')
      .replace(/[\p{Cc}\p{Cf}<>:"/\\|?*]+/gu, ' ')
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/^\.+/, '')
      .slice(0, 120)
      .trim() || 'download';
  const filename = extension === null ? base : `${base}.${extension}`;
  if (recentFilenames.size >= RECENT_FILENAMES) recentFilenames.delete(recentFilenames.keys().next().value as string);
  recentFilenames.set(cacheKey, filename);
  return filename;
}
