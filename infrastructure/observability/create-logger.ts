import pino from 'pino';
import type { Logger } from '../../application/ports/logger.js';

export interface LoggerOptions {
  /**
   * Buffer lines and write them in the background instead of one blocking
   * write per line; the service's main sets it and flushes before it exits.
   */
  buffered?: boolean;
}

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
    pino.destination({ dest: 1, sync: options.buffered !== true, minLength: options.buffered === true ? 4096 : 0 }),
  );
}
