/** Which accounts hold lookup reservations (jobs or listings not yet charged or released), for the reconciler's sweep. */
export interface PendingLookupAccounts {
  accountIds(): Promise<string[]>;
}
