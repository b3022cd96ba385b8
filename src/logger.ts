import { formatWithOptions } from 'node:util';
import { pino } from 'pino';
import type { Config } from './config';

export type ServiceLogger = pino.Logger;

/** Request headers that carry secrets: never written to a log. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-scm-b-token"]',
  'req.headers["x-hub-signature-256"]',
  'req.headers["x-hub-signature"]',
];

/**
 * The process's log (start-up steps, requests, jobs, the outbox relay, stop): JSON lines for log
 * collectors, or one readable line per entry in a terminal (LOG_FORMAT, docs/operations.md#logs).
 * `output` is where lines go (standard output unless a test captures them).
 */
export function createServiceLogger(
  config: Pick<Config, 'logLevel'> & Partial<Pick<Config, 'logFormat'>>,
  output: { write: (text: string) => unknown; isTTY?: boolean } = process.stdout,
): ServiceLogger {
  const format = config.logFormat ?? 'auto';
  const readable = format === 'pretty' || (format === 'auto' && output.isTTY === true);
  const options = { level: config.logLevel, base: { pid: process.pid }, redact: REDACTED_PATHS };
  if (!readable) return output === process.stdout ? pino(options) : pino(options, output);
  const stacks = config.logLevel === 'debug' || config.logLevel === 'trace';
  return pino(options, { write: (json: string) => output.write(readableLine(json, stacks)) });
}

const LEVELS: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO ',
  40: 'WARN ',
  50: 'ERROR',
  60: 'FATAL',
};

/** Fields every entry has, or that the readable line shows in its own place. */
const SHOWN_APART = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err']);
/** Durations the messages carry readably ("(1.2 s)", "3.1 ms"). */
const TIMES = new Set(['ms', 'responseTime']);

function clock(time: unknown): string {
  const date = new Date(typeof time === 'number' ? time : Date.now());
  return date.toISOString().slice(11, 23);
}

function value(item: unknown): string {
  if (typeof item === 'string') return /\s/.test(item) ? JSON.stringify(item) : item;
  return formatWithOptions({ breakLength: Number.POSITIVE_INFINITY, depth: 3 }, '%j', item);
}

/**
 * One JSON entry as one line: `12:00:01.234 INFO  message key=value`; an error adds its message
 * (its stack only with LOG_LEVEL debug or trace: the stack is for whoever debugs, not the operator).
 */
export function readableLine(json: string, stacks = false): string {
  let entry: Record<string, unknown>;
  try {
    entry = JSON.parse(json);
  } catch {
    return json.endsWith('\n') ? json : `${json}\n`;
  }
  const level = typeof entry.level === 'number' ? entry.level : 30;
  const message = typeof entry.msg === 'string' ? entry.msg : '';
  // A value the message already says (the request's method, URL, status, its time) is not repeated.
  const said = (key: string, item: unknown) =>
    TIMES.has(key) || (typeof item !== 'object' && message.includes(String(item)));
  const fields = Object.entries(entry)
    .filter(([key, item]) => !SHOWN_APART.has(key) && !said(key, item))
    .map(([key, item]) => `${key}=${value(item)}`);
  const err = entry.err as { type?: string; message?: string; stack?: string } | undefined;
  const problem = err ? ` (${err.type ?? 'Error'}: ${err.message ?? ''})` : '';
  const stack = err?.stack && stacks ? `\n${err.stack}` : '';
  const rest = fields.length > 0 ? `  ${fields.join(' ')}` : '';
  return `${clock(entry.time)} ${LEVELS[level] ?? level} ${message}${problem}${rest}${stack}\n`;
}
