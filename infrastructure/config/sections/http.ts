import { ConfigError } from '../config-error.js';
import type { EnvReader } from '../env-reader.js';
import { type ConfigSection, code, custom, integer, list, text } from '../variable.js';

export interface HttpSettings {
  host: string;
  port: number;
  publicBaseUrl: string;
  legacyApiPrefixes: string[];
  bodyLimitBytes: number;
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  shutdownTimeoutMs: number;
}

const HOST = text('HOST', '0.0.0.0', 'address the API listens on');
const PORT = integer('PORT', 8080, [0, 65535], 'port the API listens on');
const PUBLIC_BASE_URL = custom(
  'PUBLIC_BASE_URL',
  'base of `downloadUrl` links',
  code('http://localhost:$PORT'),
  (env) => env.url('PUBLIC_BASE_URL', `http://localhost:${PORT.read(env)}`).replace(/\/$/, ''),
);
const LEGACY_API_PREFIXES = list(
  'LEGACY_API_PREFIXES',
  ['/api/v1', '/v2'],
  'further path prefixes serving the same API as `/api/v2`',
);
const BODY_LIMIT_BYTES = integer(
  'BODY_LIMIT_BYTES',
  64 * 1024,
  [1024, 10 * 1024 * 1024],
  'larger request bodies get `413`',
);
const HTTP_REQUEST_TIMEOUT_MS = integer(
  'HTTP_REQUEST_TIMEOUT_MS',
  30_000,
  [1_000, 3_600_000],
  'a client must send a whole request within this, or gets `408` and is disconnected',
);
const HTTP_HEADERS_TIMEOUT_MS = integer(
  'HTTP_HEADERS_TIMEOUT_MS',
  10_000,
  [500, 3_600_000],
  'the same for the request headers; at most `HTTP_REQUEST_TIMEOUT_MS`',
);
const SHUTDOWN_TIMEOUT_MS = integer(
  'SHUTDOWN_TIMEOUT_MS',
  20_000,
  [0, 600_000],
  'how long a stopping API lets requests under way finish before it closes their connections',
);

export const httpSection: ConfigSection<HttpSettings> = {
  title: 'HTTP API',
  variables: [
    HOST,
    PORT,
    PUBLIC_BASE_URL,
    LEGACY_API_PREFIXES,
    BODY_LIMIT_BYTES,
    HTTP_REQUEST_TIMEOUT_MS,
    HTTP_HEADERS_TIMEOUT_MS,
    SHUTDOWN_TIMEOUT_MS,
  ],
  load: (env) => ({
    host: HOST.read(env),
    port: PORT.read(env),
    publicBaseUrl: PUBLIC_BASE_URL.read(env),
    legacyApiPrefixes: LEGACY_API_PREFIXES.read(env).map((prefix) => {
      if (!/^\/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$/.test(prefix))
        throw new ConfigError('LEGACY_API_PREFIXES', `has an invalid path prefix: ${prefix}`);
      return prefix;
    }),
    bodyLimitBytes: BODY_LIMIT_BYTES.read(env),
    ...timeouts(env),
    shutdownTimeoutMs: SHUTDOWN_TIMEOUT_MS.read(env),
  }),
};

/** Node refuses a headers timeout longer than the whole request's. */
function timeouts(env: EnvReader): Pick<HttpSettings, 'requestTimeoutMs' | 'headersTimeoutMs'> {
  const requestTimeoutMs = HTTP_REQUEST_TIMEOUT_MS.read(env);
  const headersTimeoutMs = HTTP_HEADERS_TIMEOUT_MS.read(env);
  if (headersTimeoutMs > requestTimeoutMs)
    throw new ConfigError('HTTP_HEADERS_TIMEOUT_MS', `must not exceed HTTP_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  return { requestTimeoutMs, headersTimeoutMs };
}
