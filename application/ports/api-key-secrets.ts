/**
 * API keys are stored only as a lookup hash and, because the key also signs
 * webhooks, encrypted under the operator's master key.
 */
export interface ApiKeySecrets {
  generate(): { key: string; keyPrefix: string };
  hash(key: string): string;
  encrypt(key: string): string;
  decrypt(encryptedKey: string): string;
}
