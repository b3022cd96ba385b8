import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';

const run = promisify(execFile);

describe('driftwatch admin create-tenant', () => {
  test('creates a tenant and prints its owner token once; a bad plan is a usage error', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dw-cli-'));
    const env = { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' };
    try {
      const ok = await run(
        'node',
        ['cli/driftwatch.js', 'admin', 'create-tenant', '--name', 'Acme', '--plan', 'team'],
        {
          env,
        },
      );
      expect(ok.stdout).toMatch(/Created tenant "Acme" \(team\)/);
      expect(ok.stdout).toMatch(/^dw_[0-9A-Za-z]{46}$/m);
      const bad = await run(
        'node',
        ['cli/driftwatch.js', 'admin', 'create-tenant', '--name', 'X', '--plan', 'gold'],
        {
          env,
        },
      ).catch((error: { code: number; stderr: string }) => error);
      expect((bad as { code: number }).code).toBe(2);
      expect((bad as { stderr: string }).stderr).toContain('Unknown plan');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
