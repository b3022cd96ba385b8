import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonl, osvRecord } from '../test/support/scenarios/advisory-records';
import { run as audit } from './commands/audit';
import { type Progress, terminalProgress } from './progress';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function recordingStream(isTTY: boolean) {
  const writes: string[] = [];
  return { isTTY, writes, write: (text: string) => void writes.push(text) };
}

describe('the progress line', () => {
  it('is redrawn in place on a terminal with the time spent, and cleared at the end', async () => {
    const stream = recordingStream(true);
    const progress = terminalProgress(stream, 5);
    progress.show('importing all.zip …');
    await sleep(40);
    expect(stream.writes.length).toBeGreaterThan(0);
    expect(stream.writes[0]).toBe('\r\u001b[2Kimporting all.zip … (0 s)');
    progress.stop();
    expect(stream.writes.at(-1)).toBe('\r\u001b[2K');
    const after = stream.writes.length;
    await sleep(30);
    expect(stream.writes).toHaveLength(after);
  });

  it('writes nothing when standard error is not a terminal', async () => {
    const stream = recordingStream(false);
    const progress = terminalProgress(stream, 5);
    progress.show('importing all.zip …');
    await sleep(30);
    progress.stop();
    expect(stream.writes).toEqual([]);
  });

  it('follows an audit through reading, loading and matching', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dw-progress-'));
    try {
      writeFileSync(
        join(dir, 'package-lock.json'),
        JSON.stringify({
          lockfileVersion: 3,
          packages: {
            '': { dependencies: { a: '1.0.0' } },
            'node_modules/a': { version: '1.0.0' },
          },
        }),
      );
      const osv = join(dir, 'advisories.jsonl');
      writeFileSync(osv, jsonl([osvRecord({ id: 'GHSA-prog-0001-aaaa' })]));
      const shown: string[] = [];
      let stops = 0;
      const progress: Progress = {
        show: (text) => void shown.push(text),
        stop: () => void stops++,
      };
      const code = await audit(
        [join(dir, 'package-lock.json'), '--osv', osv, '--no-cache', '--json'],
        {
          progress,
          stdoutIsTerminal: false,
        },
      );
      expect(code).toBe(0);
      expect(shown).toEqual([
        'reading the tree: 1 files, 1 dependencies',
        'loading the advisories of 1 packages',
        'matching: 1 of 1 files',
      ]);
      expect(stops).toBeGreaterThan(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
