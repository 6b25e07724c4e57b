import { type ConfigSection, choice, integer } from '../variable.js';

export interface ObservabilitySettings {
  logLevel: string;
  requestLogSamplePercent: number;
  /** /readyz answers 503 while a projection or the relay lags more than this. */
  readyMaxLagMs: number;
}

const LOG_LEVEL = choice(
  'LOG_LEVEL',
  ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
  'info',
  'the least severe log lines written (`fatal`, `error`, `warn`, `info`, `debug`, `trace`, or `silent`)',
);
const REQUEST_LOG_SAMPLE_PERCENT = integer(
  'REQUEST_LOG_SAMPLE_PERCENT',
  1,
  [0, 100],
  'share of ordinary requests given a log line (each line says the share); failed (5xx) and slow (over 1 s) requests are always logged, and metrics count every request',
);
const READY_MAX_LAG_MS = integer(
  'READY_MAX_LAG_MS',
  60_000,
  [100, 86_400_000],
  '`/readyz` answers 503 while a projection or the relay lags more than this',
);

export const observabilitySection: ConfigSection<ObservabilitySettings> = {
  title: 'Logs and readiness',
  variables: [LOG_LEVEL, REQUEST_LOG_SAMPLE_PERCENT, READY_MAX_LAG_MS],
  load: (env) => ({
    logLevel: LOG_LEVEL.read(env),
    requestLogSamplePercent: REQUEST_LOG_SAMPLE_PERCENT.read(env),
    readyMaxLagMs: READY_MAX_LAG_MS.read(env),
  }),
};
