import { section } from '../section.js';
import { choice, integer } from '../variable.js';

export const observabilitySection = section('Logs and readiness', {
  logLevel: choice(
    'LOG_LEVEL',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    'info',
    'the least severe log lines written (`fatal`, `error`, `warn`, `info`, `debug`, `trace`, or `silent`)',
  ),
  requestLogSamplePercent: integer(
    'REQUEST_LOG_SAMPLE_PERCENT',
    1,
    [0, 100],
    'share of ordinary requests given a log line (each line says the share); failed (5xx) and slow (over 1 s) requests are always logged, and metrics count every request',
  ),
  /** /readyz answers 503 while a projection or the relay lags more than this. */
  readyMaxLagMs: integer(
    'READY_MAX_LAG_MS',
    60_000,
    [100, 86_400_000],
    '`/readyz` answers 503 while a projection or the relay lags more than this',
  ),
});
