import type { Knex } from 'knex';
import type {
  Operator,
  OperatorTokenReadModel,
  OperatorTokenView,
} from '../../../application/ports/operator-tokens.js';
import type { OperatorScope } from '../../../domain/operator-token/operator-token.js';

interface OperatorTokenRow {
  token_id: string;
  name: string;
  scope: OperatorScope;
  prefix: string;
  issued_at: Date;
  revoked_at: Date | null;
}

export class PostgresOperatorTokenReadModel implements OperatorTokenReadModel {
  constructor(private readonly db: Knex) {}

  async findActive(tokenHash: string): Promise<Operator | null> {
    const row = await this.db<OperatorTokenRow>('operator_tokens')
      .where('token_hash', tokenHash)
      .whereNull('revoked_at')
      .first('token_id', 'name', 'scope');
    return row === undefined ? null : { tokenId: row.token_id, name: row.name, scope: row.scope };
  }

  async list(): Promise<OperatorTokenView[]> {
    const rows = await this.db<OperatorTokenRow>('operator_tokens').orderBy('issued_at').orderBy('token_id');
    return rows.map((row) => ({
      tokenId: row.token_id,
      name: row.name,
      scope: row.scope,
      prefix: row.prefix,
      issuedAt: new Date(row.issued_at).toISOString(),
      revokedAt: row.revoked_at === null ? null : new Date(row.revoked_at).toISOString(),
    }));
  }
}
