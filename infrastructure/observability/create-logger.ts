import pino from 'pino';
import type { Logger } from '../../application/ports/logger.js';

/** JSON logs on stdout. Credentials are redacted wherever they might be logged by mistake. */
export function createLogger(level: string): Logger & pino.Logger {
  return pino({
    level,
    base: { service: 'video-download-service' },
    redact: {
      paths: ['authorization', 'apiKey', 'encryptedKey', 'headers.authorization', '*.authorization', '*.apiKey', '*.encryptedKey', 'masterKey'],
      censor: '[redacted]',
    },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
