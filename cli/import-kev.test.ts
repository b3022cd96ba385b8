import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { kevCatalogue, kevEntry } from '../test/support/scenarios';

const run = promisify(execFile);

describe('driftwatch admin import-kev', () => {
  test('loads a KEV catalogue file; a hostile one is refused with one line and exit 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dw-cli-kev-'));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    const good = join(dataDir, 'kev.json');
    const bad = join(dataDir, 'bad.json');
    writeFileSync(good, JSON.stringify(kevCatalogue([kevEntry('CVE-2026-4444')])));
    writeFileSync(
      bad,
      JSON.stringify(kevCatalogue([kevEntry('CVE-2026-4445', { dateAdded: 'soon' })])),
    );
    try {
      const first = await run(
        'node',
        ['cli/driftwatch.js', 'admin', 'import-kev', good, '--json'],
        {
          env,
        },
      );
      expect(JSON.parse(first.stdout)).toMatchObject({
        entries: 1,
        added: 1,
        catalogVersion: '2026.03.02',
      });
      const refused = await run('node', ['cli/driftwatch.js', 'admin', 'import-kev', bad], {
        env,
      }).catch((error: { code: number; stderr: string }) => error);
      expect((refused as { code: number }).code).toBe(1);
      const lines = (refused as { stderr: string }).stderr.trim().split('\n');
      expect(lines.at(-1)).toMatch(
        /bad\.json: not a valid KEV catalogue: vulnerabilities\[0\]\.dateAdded/,
      );
      const usage = await run('node', ['cli/driftwatch.js', 'admin', 'import-kev'], { env }).catch(
        (error: { code: number }) => error,
      );
      expect((usage as { code: number }).code).toBe(2);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 400_000);
});
