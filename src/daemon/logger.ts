import { pino, type Logger } from 'pino';

export type { Logger };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** JSON lines on stderr, written synchronously so that nothing is lost when the daemon exits. */
export function createLogger(level: LogLevel): Logger {
  return pino({ level, base: { pid: process.pid } }, pino.destination({ dest: 2, sync: true }));
}
