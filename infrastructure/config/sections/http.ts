import { ConfigError } from '../config-error.js';
import { InvalidValue } from '../invalid-value.js';
import { httpUrl } from '../parsers.js';
import { section } from '../section.js';
import { code, integer, list, text, variable } from '../variable.js';

const PORT = integer('PORT', 8080, [0, 65535], 'port the API listens on');

const checkPathPrefix = (prefix: string) => {
  if (!/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/.test(prefix)) throw new InvalidValue(`has an invalid path prefix: ${prefix}`);
};

export const httpSection = section(
  'HTTP API',
  {
    host: text('HOST', '0.0.0.0', 'address the API listens on'),
    port: PORT,
    publicBaseUrl: variable({
      name: 'PUBLIC_BASE_URL',
      doc: 'base of `downloadUrl` links',
      shownDefault: code('http://localhost:$PORT'),
      fallback: (env) => `http://localhost:${PORT.read(env)}`,
      parse: (raw) => httpUrl(raw).replace(/\/$/, ''),
    }),
    legacyApiPrefixes: list(
      'LEGACY_API_PREFIXES',
      ['/api/v1', '/v2'],
      'further path prefixes serving the same API as `/api/v2`',
      checkPathPrefix,
    ),
    bodyLimitBytes: integer('BODY_LIMIT_BYTES', 64 * 1024, [1024, 10 * 1024 * 1024], 'larger request bodies get `413`'),
    requestTimeoutMs: integer(
      'HTTP_REQUEST_TIMEOUT_MS',
      30_000,
      [1_000, 3_600_000],
      'a client must send a whole request within this, or gets `408` and is disconnected',
    ),
    headersTimeoutMs: integer(
      'HTTP_HEADERS_TIMEOUT_MS',
      10_000,
      [500, 3_600_000],
      'the same for the request headers; at most `HTTP_REQUEST_TIMEOUT_MS`',
    ),
    shutdownTimeoutMs: integer(
      'SHUTDOWN_TIMEOUT_MS',
      20_000,
      [0, 600_000],
      'how long a stopping API lets requests under way finish before it closes their connections',
    ),
  },
  // Node refuses a headers timeout longer than the whole request's.
  ({ requestTimeoutMs, headersTimeoutMs }) => {
    if (headersTimeoutMs > requestTimeoutMs)
      throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', `must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  },
);
