import type { OperatorScope } from '../../domain/operator-token/operator-token.js';

/** The operator a token authenticated: named in every admin write it makes. */
export interface Operator {
  tokenId: string;
  name: string;
  scope: OperatorScope;
}

export interface OperatorTokenView extends Operator {
  prefix: string;
  issuedAt: string;
  revokedAt: string | null;
}

/** Operator tokens are kept only as a lookup hash, like API keys, but apart from them: neither opens the other's door. */
export interface OperatorTokenSecrets {
  generate(): { token: string; prefix: string };
  hash(token: string): string;
}

export interface OperatorTokenReadModel {
  /** The operator of an active (not revoked) token, by the token's hash. */
  findActive(tokenHash: string): Promise<Operator | null>;
  list(): Promise<OperatorTokenView[]>;
}
