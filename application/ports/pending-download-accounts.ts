/** Which accounts hold reservations (queued or running downloads), for the reconciler's sweep. */
export interface PendingDownloadAccounts {
  accountIds(): Promise<string[]>;
}
