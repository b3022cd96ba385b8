import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kevCatalogue, kevEntry } from '../../../../test/support/scenarios';
import { openTestDatabase } from '../../../../test/support/test-app';
import type { Database } from '../../../db/connection';
import { OperationInputError, runOperation } from '../../../operator/operations';

describe('the import-kev operator operation', () => {
  let database: Database;
  const dir = mkdtempSync(join(tmpdir(), 'dw-kev-op-'));
  const context = () => ({ database, dataDir: dir, fileUrlRoots: [] });

  beforeAll(async () => {
    database = await openTestDatabase(2);
  }, 240_000);
  afterAll(async () => {
    await database?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('imports a file and records the import', async () => {
    const file = join(dir, 'kev.json');
    writeFileSync(file, JSON.stringify(kevCatalogue([kevEntry('CVE-2026-5555')])));
    const summary = await runOperation(context(), 'import-kev', { source: file });
    expect(summary).toMatchObject({ entries: 1, added: 1, exploitationsDetected: 0 });
    const imports = await database.system
      .selectFrom('known_exploited_imports')
      .selectAll()
      .execute();
    expect(imports).toMatchObject([
      { catalog_version: '2026.03.02', entries: 1, added: 1, source: file },
    ]);
  });

  it('answers input errors (400 on the channel) for hostile input, writing nothing', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(kevCatalogue([kevEntry('CVE-2026-6666'), kevEntry('nope')])));
    for (const input of [
      { source: 'relative.json' },
      { source: 42 },
      {},
      { source: bad },
      { source: dir },
    ]) {
      await expect(runOperation(context(), 'import-kev', input)).rejects.toBeInstanceOf(
        OperationInputError,
      );
    }
    const rows = await database.system
      .selectFrom('known_exploited_vulnerabilities')
      .select('cve_id')
      .execute();
    expect(rows.map((r) => r.cve_id)).toEqual(['CVE-2026-5555']);
  });
});
