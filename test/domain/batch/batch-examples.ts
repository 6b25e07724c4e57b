import type { BatchCommand } from '../../../domain/batch/commands.js';
import type { BatchCounts, BatchEvent, BatchOutcome, SettledJobStatus } from '../../../domain/batch/events.js';
import { CREDIT_LIMIT_REFUSAL } from '../../../domain/batch/refusal.js';
import type { BatchSource } from '../../../domain/batch/source.js';

/** The events and commands of one batch, `batch-1` of `acc-1`, as the batch specs write them. */
export const batchId = 'batch-1';
export const accountId = 'acc-1';
export const t0 = '2026-03-01T00:00:00.000Z';
export const t1 = '2026-03-01T00:00:05.000Z';
export const t2 = '2026-03-01T00:01:00.000Z';

export const video = (n: number) => `https://www.youtube.com/watch?v=video${n}`;
const playlistUrl = 'https://www.youtube.com/playlist?list=PL1';

const requestFields = {
  batchId,
  accountId,
  maxVideos: 50,
  format: 'audio' as const,
  language: null,
  webhookUrl: 'https://hooks.example.com/video',
  batchWebhookUrl: 'https://hooks.example.com/batch',
};

export const requestBatch = (source: BatchSource = { kind: 'playlist', url: playlistUrl }, maxVideos = 50) =>
  ({ type: 'RequestBatch', data: { ...requestFields, source, maxVideos, now: t0 } }) satisfies BatchCommand;

export const requested = (
  source: BatchSource = { kind: 'playlist', url: playlistUrl },
  maxVideos = 50,
): BatchEvent => ({
  type: 'BatchRequested',
  data: { ...requestFields, source, maxVideos, requestedAt: t0 },
});

/** Videos 1..count, titled. */
export const listedVideos = (count: number) =>
  Array.from({ length: count }, (_, index) => ({ videoUrl: video(index + 1), title: `Video ${index + 1}` }));

export const listed = (count: number, listingUnits = Math.ceil(count / 10)): BatchEvent => ({
  type: 'BatchListed',
  data: { batchId, accountId, videos: listedVideos(count), listingUnits, listedAt: t1 },
});

export const admitted = (n: number, jobId = `job-${n}`, at = t1): BatchEvent => ({
  type: 'BatchVideoAdmitted',
  data: { batchId, accountId, videoUrl: video(n), jobId, admittedAt: at },
});

export const admit = (freeSlots: number, jobIds: string[], now = t1) =>
  ({ type: 'AdmitVideos', data: { batchId, freeSlots, jobIds, now } }) satisfies BatchCommand;

export const settled = (n: number, status: SettledJobStatus = 'completed', jobId = `job-${n}`): BatchEvent => ({
  type: 'BatchVideoSettled',
  data: { batchId, accountId, videoUrl: video(n), jobId, status, settledAt: t2 },
});

export const settle = (jobId: string, status: SettledJobStatus = 'completed') =>
  ({ type: 'SettleVideo', data: { batchId, jobId, status, now: t2 } }) satisfies BatchCommand;

export const refusedForCredit = (n: number, jobId: string | null = null): BatchEvent => ({
  type: 'BatchVideoRefused',
  data: { batchId, accountId, videoUrl: video(n), jobId, ...CREDIT_LIMIT_REFUSAL, refusedAt: t2 },
});

export const refuseForCredit = (n: number) =>
  ({
    type: 'RefuseVideo',
    data: { batchId, videoUrl: video(n), ...CREDIT_LIMIT_REFUSAL, now: t2 },
  }) satisfies BatchCommand;

export const finished = (status: BatchOutcome, counts: Partial<BatchCounts>, round = 1, at = t2): BatchEvent => ({
  type: 'BatchFinished',
  data: {
    batchId,
    accountId,
    status,
    counts: { completed: 0, failed: 0, cancelled: 0, refused: 0, ...counts },
    round,
    finishedAt: at,
  },
});

/** A playlist of `count` videos, listed, each admitted and none settled yet. */
export const allAdmitted = (count: number): BatchEvent[] => [
  requested(),
  listed(count),
  ...Array.from({ length: count }, (_, index) => admitted(index + 1)),
];
