/**
 * Whether an error says that a server the service depends on (PostgreSQL, NATS) cannot be reached or is going away
 * right now, rather than that the request or the code is wrong: a refused or dropped connection, a server starting up
 * or shutting down, a connection pool that could not hand out a connection in time. Such an error passes: a request
 * that met it is answered 503 with Retry-After, and a start-up step that met it waits and tries again.
 */
export function isDependencyOutage(error: unknown): boolean {
  return causes(error).some(
    (cause) =>
      OUTAGE_SOCKET_CODES.has(String(cause.code)) ||
      isPostgresOutageCode(cause.code) ||
      OUTAGE_NAMES.has(String(cause.name)) ||
      OUTAGE_MESSAGES.some((pattern) => pattern.test(String(cause.message))),
  );
}

interface ErrorLike {
  code?: unknown;
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  errors?: unknown;
}

/** Node's codes for a server that does not answer or hung up (DNS included: a resolver blip is an outage too). */
const OUTAGE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  // The NATS client's own; 503 is "no responders": JetStream without a leader, or not up yet.
  '503',
  'CONNECTION_REFUSED',
  'DISCONNECT',
  'CONNECTION_CLOSED',
  'CONNECTION_DRAINING',
]);

/**
 * PostgreSQL's connection exceptions (class 08), a server shutting down or starting (57P01-57P03), and too many
 * connections (53300).
 */
function isPostgresOutageCode(code: unknown): boolean {
  return typeof code === 'string' && (/^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === '53300');
}

/** knex's pool that could not hand out a connection in time. */
const OUTAGE_NAMES = new Set(['KnexTimeoutError']);

/** node-postgres reports a dropped connection by message alone. */
const OUTAGE_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Client was closed and is not queryable/,
];

/** The error, its causes and the errors it aggregates, a few levels deep. */
function causes(error: unknown, depth = 0): ErrorLike[] {
  if (typeof error !== 'object' || error === null || depth > 4) return [];
  const like = error as ErrorLike;
  const nested = Array.isArray(like.errors) ? like.errors : [];
  return [like, ...causes(like.cause, depth + 1), ...nested.flatMap((inner) => causes(inner, depth + 1))];
}
