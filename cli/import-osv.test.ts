import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { jsonl, npmRange, osvRecord } from '../test/support/scenarios/advisory-records';

const run = promisify(execFile);

describe('driftwatch admin import-osv', () => {
  test('loads advisories from a file; the same file again changes nothing; a missing path fails', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dw-cli-osv-'));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    const file = join(dataDir, 'advisories.jsonl');
    writeFileSync(
      file,
      `${jsonl([
        osvRecord({ id: 'GHSA-cli0-0001-aaaa', affected: [npmRange('cli-pkg', '0', '1.0.1')] }),
        osvRecord({ id: 'GHSA-cli0-0002-bbbb', aliases: ['CVE-2025-40001'] }),
      ])}not json\n`,
    );
    try {
      const first = await run('node', ['cli/driftwatch.js', 'admin', 'import-osv', file], { env });
      expect(first.stdout).toContain('3 read, 2 added, 0 updated, 0 unchanged, 1 rejected');
      expect(first.stderr).toContain('advisories.jsonl#3');
      const again = await run(
        'node',
        ['cli/driftwatch.js', 'admin', 'import-osv', file, '--json'],
        {
          env,
        },
      );
      expect(JSON.parse(again.stdout).results[0]).toMatchObject({ added: 0, unchanged: 2 });
      const missing = await run(
        'node',
        ['cli/driftwatch.js', 'admin', 'import-osv', join(dataDir, 'nope.json')],
        { env },
      ).catch((error: { code: number; stderr: string }) => error);
      expect((missing as { code: number }).code).toBe(1);
      expect((missing as { stderr: string }).stderr).toContain('nope.json');
      // Not OSV data at all: every "record" rejected and nothing imported is a failure.
      const notOsv = join(dataDir, 'README.md');
      writeFileSync(notOsv, '# A project\n\nSome text.\n\n- a list\n');
      const rejected = await run('node', ['cli/driftwatch.js', 'admin', 'import-osv', notOsv], {
        env,
      }).catch((error: { code: number; stdout: string; stderr: string }) => error);
      expect((rejected as { code: number }).code).toBe(1);
      expect((rejected as { stdout: string }).stdout).toMatch(
        /0 added, 0 updated, 0 unchanged, [1-9]\d* rejected/,
      );
      expect((rejected as { stderr: string }).stderr).toContain(
        'README.md: nothing imported, every record was rejected: is it OSV data?',
      );
      const usage = await run('node', ['cli/driftwatch.js', 'admin', 'import-osv'], { env }).catch(
        (error: { code: number }) => error,
      );
      expect((usage as { code: number }).code).toBe(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
