import { randomUUID } from 'node:crypto';
import type { DownloadJobCommandHandler } from '../../application/downloads/download-job-commands.js';
import { TOKENS } from '../../infrastructure/composition/tokens.js';
import type { TestService } from './test-service.js';

/**
 * A job that stays queued (no worker takes it), written through the job's
 * commands: nothing depends on a request body arriving within a short timeout
 * or on a lookup. Its title is the largest part of its body.
 */
export async function submitQuietJob(service: TestService, accountId: string, title = 'Quiet'): Promise<string> {
  const jobId = randomUUID();
  await service.service.container.resolve<DownloadJobCommandHandler>(TOKENS.downloadJobCommands).handle(jobId, {
    type: 'SubmitDownload',
    data: {
      jobId,
      accountId,
      url: 'https://www.youtube.com/watch?v=quiet',
      format: 'audio',
      startTime: null,
      endTime: null,
      language: null,
      webhookUrl: null,
      title,
      duration: 10,
      maxFileSizeBytes: 1e9,
      now: new Date().toISOString(),
    },
  });
  return jobId;
}
