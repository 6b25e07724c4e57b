import type { AccountAccess } from '../../domain/account/state.js';
import type { AccountState } from '../../domain/account/state.js';
import type { DownloadErrorCode } from '../../domain/download-error-code.js';
import type { DownloadJobStatus } from '../../domain/download-job/state.js';
import type { MediaFormat } from '../../domain/media-format.js';

/** A download job as polling clients see it, whichever source answered. */
export interface DownloadJobView {
  jobId: string;
  accountId: string;
  status: DownloadJobStatus;
  url: string;
  format: MediaFormat;
  language: string | null;
  title: string;
  duration: number;
  webhookUrl: string | null;
  actualFormat: MediaFormat | null;
  fileKey: string | null;
  fileSize: number | null;
  fileExtension: string | null;
  errorCode: DownloadErrorCode | null;
  createdAt: string;
  startedAt: string | null;
  completedAt: string | null;
}

/** Where a page of an account's jobs starts: after this job, in newest-first order. */
export interface DownloadJobListPosition {
  createdAt: string;
  jobId: string;
}

export interface DownloadJobListQuery {
  accountId: string;
  status?: DownloadJobStatus;
  limit: number;
  after?: DownloadJobListPosition;
}

export interface DownloadJobReadModel {
  get(jobId: string): Promise<DownloadJobView | null>;
  /** The account's jobs, newest first (by creation time, then job id), strictly after `after`. */
  list(query: DownloadJobListQuery): Promise<DownloadJobView[]>;
}

export interface AccountView {
  accountId: string;
  name: string;
  email: string;
  state: AccountState;
}

export interface ApiKeyOwner {
  accountId: string;
  keyId: string;
  /** The account's plan when the key was looked up; it sets the request rate limits. */
  planId: string | null;
  /** Set while the account is suspended or closed: its requests are refused. */
  access: AccountAccess | null;
  /** A key that may only poll and list: every other request of it is refused. */
  readOnly: boolean;
}

/** An operator's search of the accounts. */
export interface AccountSearch {
  /** Part of the name or email, any letter case. */
  text?: string;
  planId?: string;
  status?: 'active' | 'suspended' | 'closed';
  /** `usage`: most bandwidth charged in the current period first. */
  sort: 'name' | 'usage';
  offset: number;
  limit: number;
}

export interface AccountReadModel {
  get(accountId: string): Promise<AccountView | null>;
  list(): Promise<AccountView[]>;
  search(criteria: AccountSearch): Promise<{ accounts: AccountView[]; total: number }>;
  /** The owner of an active (not revoked) key, by the key's hash. */
  findActiveKey(keyHash: string): Promise<ApiKeyOwner | null>;
  /** Whether the key exists, is not revoked, and its account is neither suspended nor closed. */
  isKeyActive(keyId: string): Promise<boolean>;
}
