import pino from 'pino';
import type { Logger } from '../../application/ports/logger.js';

export interface LoggerOptions {
  /**
   * Buffer lines and write them in the background instead of one blocking
   * write per line; the service's main sets it and flushes before it exits.
   * What is buffered is written within BUFFERED_FLUSH_MS however quiet the
   * process is, so a lone warning is not held back until more lines come.
   */
  buffered?: boolean;
}

const BUFFERED_FLUSH_MS = 1_000;

/** JSON logs on stdout. Credentials are redacted wherever they might be logged by mistake. */
export function createLogger(level: string, options: LoggerOptions = {}): Logger & pino.Logger {
  return pino(
    {
      level,
      base: { service: 'video-download-service' },
      redact: {
        paths: [
          'authorization',
          'apiKey',
          'encryptedKey',
          'headers.authorization',
          '*.authorization',
          '*.apiKey',
          '*.encryptedKey',
          'masterKey',
        ],
        censor: '[redacted]',
      },
      timestamp: pino.stdTimeFunctions.isoTime,
    },
    pino.destination(
      options.buffered === true
        ? { dest: 1, sync: false, minLength: 4096, periodicFlush: BUFFERED_FLUSH_MS }
        : { dest: 1, sync: true, minLength: 0 },
    ),
  );
}
