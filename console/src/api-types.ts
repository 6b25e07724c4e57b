/** The shapes of the API's answers the console reads (see the OpenAPI document at /api/v2/openapi.json). */

export type JobStatus = 'IN_QUEUE' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

export interface Progress {
  stage: 'downloading' | 'converting' | 'storing';
  percent?: number;
  downloadedBytes?: number;
  totalBytes?: number;
  speedBytesPerSecond?: number;
  etaSeconds?: number;
}

export interface Job {
  jobId: string;
  status: JobStatus;
  title: string;
  duration: number;
  url: string;
  format: string;
  actualFormat?: string;
  language?: string | null;
  downloadUrl?: string;
  fileSize?: number;
  errorCode?: string;
  createdAt?: string;
  startedAt?: string | null;
  completedAt?: string | null;
  progress?: Progress;
}

export interface JobPage {
  jobs: Job[];
  nextCursor: string | null;
}

export interface FeatureBalance {
  granted: number;
  used: number;
  remaining: number;
  unlimited: boolean;
  resetsAt: number | null;
}

export interface Me {
  name: string;
  email: string;
  plan: { id: string; renewsAt: number | null; canceledAt: number | null };
  balances: Record<string, FeatureBalance>;
  subscriptions: { allowance: number; held: number };
}

export interface WebhookAttempt {
  attempt: number;
  at: string;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  nextAttemptAt: string | null;
}

export const isTerminal = (job: Pick<Job, 'status'>): boolean => job.status === 'COMPLETED' || job.status === 'FAILED';

export interface Subscription {
  subscriptionId: string;
  status: 'active' | 'paused';
  source: { kind: 'channel' | 'playlist'; url: string };
  format: string;
  checkEveryMinutes: number;
  pause: { pausedBy: 'user' | 'subscription'; reason: string | null; pausedAt: string } | null;
  nextCheckAt: string | null;
  checkStartedAt: string | null;
  lastCheck: { checkId: string; finishedAt: string; found: number | null; failure: string | null } | null;
  jobs: Array<{ jobId: string; videoUrl: string; title: string | null }>;
}

export interface SubscriptionPage {
  subscriptions: Subscription[];
  total: number;
  nextCursor: string | null;
}

export type BatchStatus = 'pending' | 'running' | 'completed' | 'partial' | 'failed' | 'cancelled';

export interface Batch {
  batchId: string;
  status: BatchStatus;
  source: { kind: 'playlist' | 'channel' | 'urls'; url?: string };
  format: string;
  listingError: string | null;
  totalVideos: number;
  counts: Record<string, number>;
  jobs: Array<{
    videoUrl: string;
    title: string | null;
    status: string;
    jobId: string | null;
    refusal: { code: string; message: string } | null;
  }>;
}
