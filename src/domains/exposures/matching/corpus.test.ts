import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  insertRepository,
  type TestApp,
  type TestTenant,
} from '../../../../test/support/scenarios';
import {
  SHARED_DATA_MISSING,
  sharedDataDir,
  sharedPath,
} from '../../../../test/support/shared-data';
import { newId } from '../../../db/ids';
import { withTenant } from '../../../db/tenant-scope';
import { extractPath } from '../../../ecosystems/extract-tree';
import { importRecords } from '../../../intel/advisory-store/import';
import { type ReadResult, readRecordsFromPath } from '../../../intel/advisory-store/read';
import { AdvisoryIndex } from '../../../intel/osv/match';
import { storeScanDependencies } from '../../scans/service';
import { MATCH_DEPENDENCIES } from '../jobs';
import { requestRematch } from './rematch-request';

/**
 * Differential check on real data: real lockfiles and manifests scanned into repositories,
 * real OSV records imported into the store, and the exposures the store-backed matcher opens
 * compared with what the in-memory matcher (src/intel/osv/match.ts) says for the same
 * dependencies and advisories. The store must neither lose nor invent a match.
 */
const OSV_FILES = [
  'npm.ghsa.jsonl',
  'npm.nodejs-sec.derived.jsonl',
  'npm.retirejs.derived.jsonl',
  'PyPI.jsonl',
  'RubyGems.derived.jsonl',
  'Packagist.derived.jsonl',
];
const TREES = [
  ['generated', 'old-vulnerable'],
  ['lockfiles', 'awx'],
  ['lockfiles', 'maybe'],
  ['lockfiles', 'BookStack'],
];

const key = (...parts: (string | null)[]) => parts.map((p) => p ?? '').join('|');

describe.skipIf(!sharedDataDir)(
  `exposures on the shared corpus${sharedDataDir ? '' : ` (${SHARED_DATA_MISSING})`}`,
  () => {
    let t: TestApp;
    let tenant: TestTenant;
    let read: ReadResult;
    beforeAll(async () => {
      t = await createTestApp();
      tenant = await t.createTenant();
      read = { records: [], rejected: [], notAdvisories: [] };
      for (const file of OSV_FILES) {
        const part = await readRecordsFromPath(sharedPath('osv', file));
        read.records.push(...part.records);
      }
      await importRecords(t.database, read, requestRematch);
    }, 300_000);
    afterAll(() => t?.close());

    it('opens exactly the matches the in-memory matcher finds, never for withdrawn records', async () => {
      const index = new AdvisoryIndex(read.records.map((r) => r.advisory));
      const expected = new Set<string>();
      const repositories = new Map<string, string>();
      for (const tree of TREES) {
        const repositoryId = await insertRepository(t, tenant.tenantId, tree.join('-'));
        repositories.set(repositoryId, tree.join('/'));
        const extraction = await extractPath(sharedPath(...tree));
        await withTenant(t.database, tenant.tenantId, (db) =>
          storeScanDependencies(db, {
            tenantId: tenant.tenantId,
            repositoryId,
            scanId: newId(),
            files: extraction.files,
          }),
        );
        for (const file of extraction.files) {
          for (const dep of file.dependencies) {
            for (const match of index.match({
              ecosystem: file.ecosystem,
              name: dep.name,
              version: dep.version,
              resolution: dep.resolution,
            })) {
              expected.add(
                key(
                  repositoryId,
                  file.ecosystem,
                  dep.name,
                  dep.version,
                  match.advisory.id,
                  match.status,
                ),
              );
            }
          }
        }
      }
      const ran = await t.runJobs({ only: [MATCH_DEPENDENCIES.name] });
      expect(ran.filter((name) => name === MATCH_DEPENDENCIES.name)).toHaveLength(TREES.length);

      const { rows } = await t.database.pool.query<{
        repository_id: string;
        ecosystem: string;
        package_name: string;
        version: string;
        advisory_ids: string[];
        possibly_affected: boolean;
        vulnerability_id: string;
      }>(
        `SELECT repository_id, ecosystem, package_name, version, advisory_ids, possibly_affected,
           vulnerability_id FROM vulnerability_exposures WHERE tenant_id = $1`,
        [tenant.tenantId],
      );
      const actual = new Set<string>();
      for (const row of rows) {
        for (const advisoryId of row.advisory_ids) {
          actual.add(
            key(
              row.repository_id,
              row.ecosystem,
              row.package_name,
              row.version === '' ? null : row.version,
              advisoryId,
              row.possibly_affected ? 'possibly_affected' : 'affected',
            ),
          );
        }
      }
      expect(expected.size).toBeGreaterThan(50);
      expect([...actual].filter((k) => !expected.has(k))).toEqual([]);
      expect([...expected].filter((k) => !actual.has(k))).toEqual([]);

      // Alias join: one exposure per (repository, package, version, flaw), never one per record.
      const perFlaw = new Set(
        rows.map((r) =>
          key(r.repository_id, r.ecosystem, r.package_name, r.version, r.vulnerability_id),
        ),
      );
      expect(perFlaw.size).toBe(rows.length);
      expect(rows.some((r) => r.advisory_ids.length > 1)).toBe(true);

      const withdrawn = new Set(
        read.records.filter((r) => r.advisory.withdrawn).map((r) => r.advisory.id),
      );
      expect(withdrawn.size).toBeGreaterThan(0);
      expect(rows.flatMap((r) => r.advisory_ids).filter((id) => withdrawn.has(id))).toEqual([]);
      const ecosystems = new Set(rows.map((r) => r.ecosystem));
      for (const ecosystem of ['npm', 'PyPI'])
        expect(ecosystems.has(ecosystem), ecosystem).toBe(true);
    }, 300_000);
  },
);
