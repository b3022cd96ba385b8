import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { Ecosystem } from '../../ecosystems/types';
import { AdvisoryIndex } from '../osv/match';
import type { Advisory, AffectedPackage } from '../osv/types';
import type { PackageKey } from './store';

/**
 * Lookups in the store by (ecosystem, normalised name): the index `osv_affected_by_package`
 * answers them, so a lookup costs per package asked about, whatever the size of the store.
 * The rows become advisory stubs (only what the matcher reads) in an `AdvisoryIndex`.
 */
/** The live (not withdrawn) affected entries of `keys`, indexed for matching. */
export async function loadIndex(
  db: Kysely<DB>,
  keys: PackageKey[],
): Promise<{ index: AdvisoryIndex; vulnerabilityOf: Map<string, string> }> {
  const advisories = new Map<string, Advisory>();
  const vulnerabilityOf = new Map<string, string>();
  for (let i = 0; i < keys.length; i += 2000) {
    const part = keys.slice(i, i + 2000);
    const rows = await sql<{
      advisory_id: string;
      vulnerability_id: string;
      ecosystem: string;
      osv_ecosystem: string;
      name: string;
      osv_name: string;
      ranges: AffectedPackage['ranges'];
      versions: string[];
      modified_at: Date;
    }>`
      SELECT af.advisory_id, adv.vulnerability_id, af.ecosystem, af.osv_ecosystem, af.name,
        af.osv_name, af.ranges, af.versions, adv.modified_at
      FROM osv_affected af
      JOIN unnest(${part.map((p) => p.ecosystem)}::text[], ${part.map((p) => p.name)}::text[])
        AS wanted(ecosystem, name) ON wanted.ecosystem = af.ecosystem AND wanted.name = af.name
      JOIN osv_advisories adv ON adv.id = af.advisory_id
      WHERE NOT af.withdrawn AND adv.withdrawn_at IS NULL
      ORDER BY af.advisory_id, af.ordinal`.execute(db);
    for (const row of rows.rows) {
      let advisory = advisories.get(row.advisory_id);
      if (!advisory) {
        advisory = {
          id: row.advisory_id,
          modified: row.modified_at.toISOString(),
          published: null,
          withdrawn: null,
          aliases: [],
          related: [],
          summary: null,
          details: null,
          cvss: [],
          databaseSeverity: null,
          severity: { source: 'none', score: null, rating: null, vector: null },
          affected: [],
          references: [],
          warnings: [],
        };
        advisories.set(row.advisory_id, advisory);
        vulnerabilityOf.set(row.advisory_id, row.vulnerability_id);
      }
      advisory.affected.push({
        osvEcosystem: row.osv_ecosystem,
        ecosystem: row.ecosystem as Ecosystem,
        rawName: row.osv_name,
        name: row.name,
        purl: null,
        ranges: row.ranges,
        versions: row.versions,
      });
    }
  }
  return { index: new AdvisoryIndex(advisories.values()), vulnerabilityOf };
}
