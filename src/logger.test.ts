import { describe, expect, test } from 'vitest';
import { createServiceLogger, readableLine } from './logger';

function captured(format: 'auto' | 'pretty' | 'json', isTTY: boolean) {
  const lines: string[] = [];
  const logger = createServiceLogger(
    { logLevel: 'info', logFormat: format },
    { write: (text) => lines.push(text), isTTY },
  );
  return { logger, lines };
}

describe('the service log', () => {
  test('is readable lines in a terminal and JSON lines otherwise', () => {
    const terminal = captured('auto', true);
    terminal.logger.info({ ms: 1234, queue: 'scans' }, 'migrated: 3 applied (1.2 s)');
    terminal.logger.info(
      { method: 'GET', statusCode: 200, correlationId: 'c1' },
      'GET /x 200 1 ms',
    );
    expect(terminal.lines).toHaveLength(2);
    expect(terminal.lines[0]).toMatch(
      /^\d\d:\d\d:\d\d\.\d{3} INFO {2}migrated: 3 applied \(1\.2 s\) {2}queue=scans\n$/,
    );
    // What the message says already is not repeated as a field.
    expect(terminal.lines[1]).toMatch(/ INFO {2}GET \/x 200 1 ms {2}correlationId=c1\n$/);

    const pipe = captured('auto', false);
    pipe.logger.info({ ms: 1234 }, 'migrated: 3 applied');
    expect(JSON.parse(pipe.lines[0] ?? '')).toMatchObject({
      level: 30,
      ms: 1234,
      msg: 'migrated: 3 applied',
    });

    const forced = captured('json', true);
    forced.logger.warn('x');
    expect(JSON.parse(forced.lines[0] ?? '').level).toBe(40);
  });

  test('an error shows its message on the line; its stack only at debug level', () => {
    const json = JSON.stringify({
      level: 50,
      time: 0,
      msg: 'job failed',
      err: { type: 'Error', message: 'boom', stack: 'Error: boom\n    at x' },
      queue: 'scans',
    });
    expect(readableLine(json)).toBe('00:00:00.000 ERROR job failed (Error: boom)  queue=scans\n');
    expect(readableLine(json, true)).toContain('\nError: boom\n    at x');
  });

  test('never writes the authorization header', () => {
    const pipe = captured('json', false);
    pipe.logger.info({ req: { headers: { authorization: 'Bearer dw_secret' } } }, 'request');
    expect(pipe.lines[0]).not.toContain('dw_secret');
  });
});
