import { hash, randomBytes } from 'node:crypto';
import type { OperatorTokenSecrets } from '../../application/ports/operator-tokens.js';

const TOKEN_PREFIX = 'vdo_';

/** Tokens are `vdo_` + 32 random bytes in base64url, looked up by SHA-256 (256 bits of entropy need no slow hash). */
export class OperatorTokenCrypto implements OperatorTokenSecrets {
  generate(): { token: string; prefix: string } {
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    return { token, prefix: token.slice(0, TOKEN_PREFIX.length + 6) };
  }

  hash(token: string): string {
    return hash('sha256', `operator:${token}`, 'hex');
  }
}
