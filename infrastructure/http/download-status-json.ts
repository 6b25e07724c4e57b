import type { DownloadLinks } from '../../application/ports/download-links.js';
import type { DownloadStatusRenderer } from '../../application/ports/download-status-renderer.js';
import type { DownloadJobView } from '../../application/ports/read-models.js';
import { downloadStatusBody } from './routes/download-status-body.js';

/**
 * The status body serialised as Koa serialises `ctx.body` for the GET route
 * (plain JSON.stringify of the same object), so a webhook carries exactly
 * the bytes a poll at the same moment would.
 */
export class DownloadStatusJson implements DownloadStatusRenderer {
  constructor(private readonly links: DownloadLinks) {}

  render(view: DownloadJobView, now: Date): string {
    return JSON.stringify(downloadStatusBody(view, this.links, now));
  }
}
