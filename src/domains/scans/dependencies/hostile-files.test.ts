import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitRepository, type GitFixture } from '../../../../test/support/git-fixtures';
import {
  createTestApp,
  scanFixture,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import { withTenant } from '../../../db/tenant-scope';
import { RUN_SCAN } from '../service';

/** A lockfile whose `evil` entry carries a NUL (the JSON escape) inside a string value. */
const NUL_LOCK = JSON.stringify({
  name: 'nul',
  lockfileVersion: 3,
  packages: {
    '': { dependencies: { kept: '1.0.0', evil: '1.0.0' } },
    'node_modules/kept': { version: '1.0.0' },
    'node_modules/evil': { version: '1.0.0', resolved: 'https://example.invalid/e\u0000vil.tgz' },
  },
});

const GOOD_LOCK = JSON.stringify({
  name: 'good',
  lockfileVersion: 3,
  packages: {
    '': { dependencies: { 'left-pad': '1.3.0' } },
    'node_modules/left-pad': { version: '1.3.0' },
  },
});

/**
 * Hostile files next to good ones: a binary file named like a lockfile, one that is not UTF-8,
 * and one whose parsed text holds a NUL. The scan completes with the good dependencies and
 * reports each bad file; nothing unstorable reaches the database (which would fail the scan).
 */
describe('a scan with hostile files', () => {
  let t: TestApp;
  let tenant: TestTenant;
  let repo: GitFixture;

  beforeAll(async () => {
    t = await createTestApp();
    tenant = await t.createTenant();
    repo = createGitRepository({
      'package-lock.json': GOOD_LOCK,
      'requirements.txt': 'requests==2.31.0\n',
      'nul/package-lock.json': NUL_LOCK,
    });
    mkdirSync(join(repo.directory, 'binary'));
    // Random bytes with NUL bytes in them: a binary file that happens to have this name.
    writeFileSync(
      join(repo.directory, 'binary', 'package-lock.json'),
      Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0]), randomBytes(4096)]),
    );
    mkdirSync(join(repo.directory, 'latin1'));
    // Latin-1 text: no NUL, but not valid UTF-8.
    writeFileSync(
      join(repo.directory, 'latin1', 'requirements.txt'),
      Buffer.from('caf\xe9==1.0\n', 'latin1'),
    );
    repo.commit({}, 'hostile files');
  }, 120_000);
  afterAll(async () => {
    repo?.remove();
    await t?.close();
  });

  it('completes with the good dependencies and an error per bad file', async () => {
    const { repositoryId, scan, ran } = await scanFixture(t, tenant.tenantId, 'hostile', repo);
    expect(ran).toContain(RUN_SCAN.name);

    const { done, deps, logs } = await withTenant(t.database, tenant.tenantId, async (db) => ({
      done: await db
        .selectFrom('scans')
        .selectAll()
        .where('id', '=', scan.id)
        .executeTakeFirstOrThrow(),
      deps: await db
        .selectFrom('repository_dependencies')
        .select(['name', 'file'])
        .where('repository_id', '=', repositoryId)
        .orderBy('name')
        .execute(),
      logs: await db
        .selectFrom('scan_logs')
        .select(['level', 'message'])
        .where('scan_id', '=', scan.id)
        .execute(),
    }));
    expect(done.state).toBe('completed');
    expect(deps).toEqual([
      { name: 'kept', file: 'nul/package-lock.json' },
      { name: 'left-pad', file: 'package-lock.json' },
      { name: 'requests', file: 'requirements.txt' },
    ]);
    const warnings = logs.filter((line) => line.level === 'warn').map((line) => line.message);
    expect(warnings).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^binary\/package-lock\.json: .*binary file \(contains NUL bytes\)/),
        expect.stringMatching(/^latin1\/requirements\.txt: .*not valid UTF-8/),
        expect.stringMatching(/^nul\/package-lock\.json: 1 entries skipped.*cannot be stored/),
      ]),
    );
    // Batched: the whole scan's log took a few statements, not one per line.
    expect(logs.length).toBeGreaterThanOrEqual(6);
  }, 60_000);
});
