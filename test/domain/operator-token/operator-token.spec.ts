import { NotFoundError, RuleViolationError } from '../../../domain/errors.js';
import { type OperatorTokenEvent, operatorTokenDecider } from '../../../domain/operator-token/operator-token.js';
import { deciderSpecification } from '../../support/decider-specification.js';

const spec = deciderSpecification(operatorTokenDecider);
const now = '2026-11-29T10:00:00.000Z';
const issue = {
  tokenId: 't1',
  name: ' billing system ',
  scope: 'write' as const,
  tokenHash: 'h',
  prefix: 'vdo_abc',
  now,
};
const issued: OperatorTokenEvent = {
  type: 'OperatorTokenIssued',
  data: { tokenId: 't1', name: 'billing system', scope: 'write', tokenHash: 'h', prefix: 'vdo_abc', issuedAt: now },
};

describe('operator token decider', () => {
  it('issues a token with its name trimmed and its scope; issuing the same id again does nothing', () => {
    spec.given([]).when({ type: 'IssueOperatorToken', data: issue }).then([issued]);
    spec.given([issued]).when({ type: 'IssueOperatorToken', data: issue }).thenNothingHappened();
  });

  it('refuses a blank name and an unknown scope', () => {
    spec
      .given([])
      .when({ type: 'IssueOperatorToken', data: { ...issue, name: ' ' } })
      .thenThrows(RuleViolationError);
    spec
      .given([])
      .when({ type: 'IssueOperatorToken', data: { ...issue, scope: 'admin' as 'write' } })
      .thenThrows(RuleViolationError);
  });

  it('revokes once; an unknown token is not found', () => {
    const revoke = { type: 'RevokeOperatorToken' as const, data: { tokenId: 't1', now } };
    spec
      .given([issued])
      .when(revoke)
      .then([{ type: 'OperatorTokenRevoked', data: { tokenId: 't1', revokedAt: now } }]);
    spec
      .given([issued, { type: 'OperatorTokenRevoked', data: { tokenId: 't1', revokedAt: now } }])
      .when(revoke)
      .thenNothingHappened();
    spec.given([]).when(revoke).thenThrows(NotFoundError);
  });
});
