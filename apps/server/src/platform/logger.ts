import pino, { type Logger } from 'pino';
import type { Config } from './config.ts';

export type { Logger };

/** JSON logs on stdout. Authorization headers and cookies never reach a log line. */
export function createLogger(config: Pick<Config, 'logLevel' | 'nodeId'>): Logger {
  return pino({
    level: config.logLevel,
    base: { node: config.nodeId },
    redact: {
      paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
      censor: '[redacted]',
    },
  });
}
