/** The key that signs an account's webhooks, in clear; never logged, never sent. */
export interface WebhookSigningKeys {
  /** The account's most recently issued key that is not revoked, or null when it has none. */
  currentKey(accountId: string): Promise<string | null>;
}
