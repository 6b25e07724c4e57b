import type { CommandHandler } from '../command-handler.js';
import type { Clock } from '../ports/clock.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type {
  Operator,
  OperatorTokenReadModel,
  OperatorTokenSecrets,
  OperatorTokenView,
} from '../ports/operator-tokens.js';
import type {
  OperatorScope,
  OperatorTokenCommand,
  OperatorTokenEvent,
  OperatorTokenState,
} from '../../domain/operator-token/operator-token.js';

export type OperatorTokenCommandHandler = CommandHandler<OperatorTokenCommand, OperatorTokenEvent, OperatorTokenState>;

/** Issued, revoked and listed from the admin CLI; looked up for each admin request. */
export class OperatorTokens {
  constructor(
    private readonly commands: OperatorTokenCommandHandler,
    private readonly readModel: OperatorTokenReadModel,
    private readonly secrets: OperatorTokenSecrets,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The token is in the answer once; only its hash is kept. */
  async issue(name: string, scope: OperatorScope): Promise<{ tokenId: string; token: string; scope: OperatorScope }> {
    const tokenId = this.ids.next();
    const { token, prefix } = this.secrets.generate();
    const now = this.clock.now().toISOString();
    await this.commands.handle(tokenId, {
      type: 'IssueOperatorToken',
      data: { tokenId, name, scope, tokenHash: this.secrets.hash(token), prefix, now },
    });
    return { tokenId, token, scope };
  }

  async revoke(tokenId: string): Promise<void> {
    await this.commands.handle(tokenId, {
      type: 'RevokeOperatorToken',
      data: { tokenId, now: this.clock.now().toISOString() },
    });
  }

  list(): Promise<OperatorTokenView[]> {
    return this.readModel.list();
  }

  authenticate(token: string): Promise<Operator | null> {
    return this.readModel.findActive(this.secrets.hash(token));
  }

  /** Whether a token printed by `issue` already works (the projector has recorded it). */
  async isUsable(token: string): Promise<boolean> {
    return (await this.authenticate(token)) !== null;
  }
}

/** How an operator is named in the events their writes append. */
export function operatorActor(operator: Operator): string {
  return `operator:${operator.tokenId}`;
}
