import { randomUUID } from 'node:crypto';
import type { DownloadJobView } from '../../application/ports/read-models.js';

/** A read model's view of a job that completed with an audio file, changed by `overrides`. */
export function completedJobView(overrides: Partial<DownloadJobView> = {}): DownloadJobView {
  return {
    jobId: randomUUID(),
    accountId: 'account-1',
    status: 'COMPLETED',
    url: 'https://video.example/watch?v=1',
    format: 'audio',
    language: null,
    title: 'A title',
    duration: 12,
    webhookUrl: null,
    actualFormat: 'audio',
    fileKey: 'account-1/job.1.m4a',
    fileSize: 1000,
    fileExtension: 'm4a',
    errorCode: null,
    createdAt: '2026-11-25T10:00:00.000Z',
    startedAt: '2026-11-25T10:00:01.000Z',
    completedAt: '2026-11-25T10:00:02.000Z',
    ...overrides,
  };
}
