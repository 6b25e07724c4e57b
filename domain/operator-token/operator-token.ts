import type { Decider, DomainEvent } from '../decider.js';
import { NotFoundError, RuleViolationError } from '../errors.js';

/** `read`: looks only; `write`: also changes accounts and replays dead letters. */
export const OPERATOR_SCOPES = ['read', 'write'] as const;
export type OperatorScope = (typeof OPERATOR_SCOPES)[number];

export type OperatorTokenCommand =
  | {
      type: 'IssueOperatorToken';
      /** The token itself is never stored: only its hash, and its first characters to recognise it by. */
      data: { tokenId: string; name: string; scope: OperatorScope; tokenHash: string; prefix: string; now: string };
    }
  | { type: 'RevokeOperatorToken'; data: { tokenId: string; now: string } };

export type OperatorTokenEvent =
  | DomainEvent<
      'OperatorTokenIssued',
      { tokenId: string; name: string; scope: OperatorScope; tokenHash: string; prefix: string; issuedAt: string }
    >
  | DomainEvent<'OperatorTokenRevoked', { tokenId: string; revokedAt: string }>;

export interface OperatorTokenState {
  status: 'none' | 'active' | 'revoked';
}

function decideOperatorToken(command: OperatorTokenCommand, state: OperatorTokenState): OperatorTokenEvent[] {
  if (command.type === 'RevokeOperatorToken') {
    if (state.status === 'none') throw new NotFoundError(`Operator token ${command.data.tokenId} not found`);
    if (state.status === 'revoked') return [];
    return [{ type: 'OperatorTokenRevoked', data: { tokenId: command.data.tokenId, revokedAt: command.data.now } }];
  }
  // Issuing an id already issued does nothing: a retried command issues it once.
  if (state.status !== 'none') return [];
  const { tokenId, name, scope, tokenHash, prefix, now } = command.data;
  if (name.trim() === '') throw new RuleViolationError('name must not be empty');
  if (!OPERATOR_SCOPES.includes(scope))
    throw new RuleViolationError(`scope must be one of: ${OPERATOR_SCOPES.join(', ')}`);
  return [
    { type: 'OperatorTokenIssued', data: { tokenId, name: name.trim(), scope, tokenHash, prefix, issuedAt: now } },
  ];
}

function evolveOperatorToken(_state: OperatorTokenState, event: OperatorTokenEvent): OperatorTokenState {
  return { status: event.type === 'OperatorTokenIssued' ? 'active' : 'revoked' };
}

export const operatorTokenDecider: Decider<OperatorTokenCommand, OperatorTokenEvent, OperatorTokenState> = {
  decide: decideOperatorToken,
  evolve: evolveOperatorToken,
  initialState: () => ({ status: 'none' }),
};

/** Each token's life is the stream `operatorToken-<tokenId>`. */
export const OPERATOR_TOKEN_CATEGORY = 'operatorToken';

export const OPERATOR_TOKEN_EVENT_TYPES: readonly OperatorTokenEvent['type'][] = [
  'OperatorTokenIssued',
  'OperatorTokenRevoked',
];
