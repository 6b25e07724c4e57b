/**
 * What erasing an account's personal data takes beyond its events: each step idempotent, so an erasure interrupted
 * anywhere is finished by running it again.
 */
export interface PersonalDataErasure {
  /** Seals what the account's events hold in plain text (written before sealing began), so the key's end covers it too. */
  sealWrittenBefore(accountId: string): Promise<void>;
  /** Destroys the account's data key: from then on its personal fields read as erased, in every process. */
  destroyKey(accountId: string): Promise<void>;
  /** Drops or blanks the account's personal fields in every read model, cache and snapshot. */
  forgetReadModels(accountId: string): Promise<void>;
}
