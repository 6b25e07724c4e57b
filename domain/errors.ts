/** Every kind of refusal a decider can raise; the HTTP layer gives each kind its status code. */
export type DomainErrorKind =
  | 'invalid_transition'
  | 'not_found'
  | 'credit_limit_reached'
  | 'pending_downloads_limit'
  | 'add_on_not_enabled'
  | 'rule_violation'
  | 'idempotency_key_reused'
  | 'job_abandoned'
  | 'lease_held'
  | 'lease_lost'
  | 'account_refused';

/** Errors a decider raises when a command is not allowed; the HTTP layer maps their kinds to status codes. */
export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;
}

/** The command does not fit the aggregate's current state (e.g. completing a failed job). */
export class InvalidTransitionError extends DomainError {
  readonly kind = 'invalid_transition';
  constructor(message: string) {
    super(message);
    this.name = 'InvalidTransitionError';
  }
}

export class NotFoundError extends DomainError {
  readonly kind = 'not_found';
  constructor(message: string) {
    super(message);
    this.name = 'NotFoundError';
  }
}

/** A plan allowance (plus overage) or a request quota is used up. */
export class CreditLimitReachedError extends DomainError {
  readonly kind = 'credit_limit_reached';
  constructor(readonly feature: string) {
    super('Credit limit reached');
    this.name = 'CreditLimitReachedError';
  }
}

export class PendingDownloadsLimitError extends DomainError {
  readonly kind = 'pending_downloads_limit';
  constructor(
    readonly pending: number,
    readonly limit: number,
  ) {
    super(`The account already has ${pending} downloads queued or in progress (limit ${limit})`);
    this.name = 'PendingDownloadsLimitError';
  }
}

export class AddOnNotEnabledError extends DomainError {
  readonly kind = 'add_on_not_enabled';
  constructor(readonly addOn: string) {
    super(`The ${addOn} add-on is not enabled for this account`);
    this.name = 'AddOnNotEnabledError';
  }
}

/** Input that passed schema validation but breaks a business rule (e.g. endTime beyond the video). */
export class RuleViolationError extends DomainError {
  readonly kind = 'rule_violation';
  constructor(message: string) {
    super(message);
    this.name = 'RuleViolationError';
  }
}

/** An Idempotency-Key the account used, within retention, for a different request. */
export class IdempotencyKeyReusedError extends DomainError {
  readonly kind = 'idempotency_key_reused';
  constructor(readonly key: string) {
    super('This Idempotency-Key was already used with a different request; use a new key for a new request');
    this.name = 'IdempotencyKeyReusedError';
  }
}

/** The job's submission took longer than the grace period: its reservation was released and the job cannot be created any more. */
export class JobAbandonedError extends DomainError {
  readonly kind = 'job_abandoned';
  constructor(readonly jobId: string) {
    super(`Job ${jobId} was abandoned: its submission took too long and nothing was queued; submit again`);
    this.name = 'JobAbandonedError';
  }
}

/** Another worker's delivery holds the job: this one is a duplicate and must not run it. */
export class LeaseHeldError extends DomainError {
  readonly kind = 'lease_held';
  constructor(readonly jobId: string) {
    super(`Job ${jobId} is being run by another worker`);
    this.name = 'LeaseHeldError';
  }
}

/** A later delivery took the job over: this worker's result no longer counts. */
export class LeaseLostError extends DomainError {
  readonly kind = 'lease_lost';
  constructor(readonly jobId: string) {
    super(`Job ${jobId} was taken over by another worker`);
    this.name = 'LeaseLostError';
  }
}

/** The account is suspended or closed: nothing new may start in it. */
export class AccountRefusedError extends DomainError {
  readonly kind = 'account_refused';
  constructor(message: string) {
    super(message);
    this.name = 'AccountRefusedError';
  }
}
