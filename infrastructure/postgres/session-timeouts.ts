/**
 * Any transaction open on the server holds back every global reader of the
 * event store at its xmin (projections, the relay), in every database. The
 * service's own transactions never idle, so one that a bug leaves idle is
 * ended by the server after this long, on every connection the service opens.
 */
export const IDLE_IN_TRANSACTION_TIMEOUT_MS = 10_000;

/** As libpq `options`, for connections that take them at connect time. */
export const SESSION_TIMEOUT_OPTIONS = `-c idle_in_transaction_session_timeout=${IDLE_IN_TRANSACTION_TIMEOUT_MS}`;
