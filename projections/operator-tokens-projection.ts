import type { Knex } from 'knex';
import type { RecordedEvent } from '../application/ports/event-store.js';
import { OPERATOR_TOKEN_EVENT_TYPES, type OperatorTokenEvent } from '../domain/operator-token/operator-token.js';
import type { Projection } from './projection.js';

/** `operator_tokens`: each operator token's hash, name and scope, for the admin API's authentication and the CLI's list. */
export const operatorTokensProjection: Projection = {
  name: 'operator_tokens',
  filter: { eventTypes: OPERATOR_TOKEN_EVENT_TYPES, streamPrefixes: ['operatorToken-'] },
  tables: ['operator_tokens'],
  async apply(trx: Knex.Transaction, events: RecordedEvent[]): Promise<void> {
    for (const recorded of events) {
      const event = { type: recorded.type, data: recorded.data } as OperatorTokenEvent;
      if (event.type === 'OperatorTokenIssued') {
        const { tokenId, name, scope, tokenHash, prefix, issuedAt } = event.data;
        await trx('operator_tokens')
          .insert({ token_id: tokenId, token_hash: tokenHash, name, scope, prefix, issued_at: issuedAt })
          .onConflict('token_id')
          .ignore();
      } else {
        await trx('operator_tokens')
          .where('token_id', event.data.tokenId)
          .whereNull('revoked_at')
          .update({ revoked_at: event.data.revokedAt });
      }
    }
  },
};
