import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { spawnCaptured } from '../support/service-process';

/**
 * The process-wide policy of docs/operations.md (src/process-handlers.ts), in a child process:
 * an unhandled rejection is logged and the process goes on; an uncaught exception is logged as
 * fatal, the service stops in order, and the process exits 1; SIGTERM stops in order and exits 0;
 * a second signal during the stop exits at once with 1.
 */
const CHILD = fileURLToPath(new URL('../support/process-handlers-child.ts', import.meta.url));

function run(mode: 'rejection' | 'signal') {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME };
  return spawnCaptured(['--import', 'tsx', CHILD, mode], env);
}

const order = (output: string, ...marks: string[]) =>
  marks
    .map((mark) => output.indexOf(mark))
    .every((at, i, all) => at >= 0 && (i === 0 || at > (all[i - 1] as number)));

describe('process handlers', () => {
  it('logs an unhandled rejection and goes on; an uncaught exception stops in order, exit 1', async () => {
    const child = run('rejection');
    expect((await child.exited).code).toBe(1);
    const output = child.output();
    expect(output).toContain('nobody awaited this');
    expect(output).toContain('state unknown');
    expect(
      order(
        output,
        'unhandled promise rejection (the process continues)',
        'still running',
        'uncaught exception: stopping',
        'stop began',
        'stopped in order',
      ),
    ).toBe(true);
    const fatal = output.split('\n').find((line) => line.includes('uncaught exception'));
    expect(JSON.parse(fatal as string)).toMatchObject({ level: 60, origin: 'uncaughtException' });
  }, 30_000);

  it('SIGTERM stops in order and exits 0', async () => {
    const child = run('signal');
    await child.waitFor('ready', 20_000);
    child.child.kill('SIGTERM');
    expect((await child.exited).code).toBe(0);
    expect(order(child.output(), 'stop began', 'stopped in order')).toBe(true);
  }, 30_000);

  it('a second signal during the stop exits at once with 1', async () => {
    const child = run('signal');
    await child.waitFor('ready', 20_000);
    child.child.kill('SIGTERM');
    await child.waitFor('stop began', 20_000);
    child.child.kill('SIGINT');
    expect((await child.exited).code).toBe(1);
    expect(child.output()).not.toContain('stopped in order');
  }, 30_000);
});
