/** When each API key was last used: noted as requests arrive (cheaply, at most about once a minute per key), read per account. */
export interface KeyUsage {
  /** Never waits, never throws: a use not recorded only leaves the time a little older. */
  noteUse(keyId: string): void;
  /** ISO times by key id, for the keys among `keyIds` ever used. */
  lastUsed(keyIds: readonly string[]): Promise<ReadonlyMap<string, string>>;
}
