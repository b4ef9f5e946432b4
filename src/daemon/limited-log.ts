import { RateLimit } from '../base/rate-limit.ts';
import type { Logger } from './logger.ts';

/**
 * Log lines that can repeat without end (a pane's emulator warnings, a failing detection, a client
 * reconnecting over the cap), limited per message to LOG_BURST a minute. A line after some were
 * dropped carries `suppressed`, the number dropped.
 */
export class LimitedLog {
  private readonly limit = new RateLimit();

  constructor(
    private readonly log: Logger,
    private readonly base: Record<string, unknown> = {},
  ) {}

  warn(fields: Record<string, unknown>, message: string): void {
    this.write('warn', fields, message);
  }

  error(fields: Record<string, unknown>, message: string): void {
    this.write('error', fields, message);
  }

  private write(level: 'warn' | 'error', fields: Record<string, unknown>, message: string): void {
    const dropped = this.limit.admit(`${level} ${message}`);
    if (dropped === null) return;
    this.log[level]({ ...this.base, ...fields, ...(dropped > 0 ? { suppressed: dropped } : {}) }, message);
  }
}
