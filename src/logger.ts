import { pino } from 'pino';
import type { Config } from './config';

export type ServiceLogger = pino.Logger;

/**
 * The process's own log (start, stop, jobs, the outbox relay, unhandled rejections): the same
 * JSON lines as the HTTP app's request log, at the configured level.
 */
export function createServiceLogger(config: Pick<Config, 'logLevel'>): ServiceLogger {
  return pino({ level: config.logLevel, base: { pid: process.pid } });
}
