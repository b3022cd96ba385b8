import type { Kysely } from 'kysely';
import { compositeKey } from '../../core/composite-key';
import type { DB } from '../../db/schema';
import { ECOSYSTEMS, type Ecosystem, type Resolution } from '../../ecosystems/types';
import { loadIndex } from '../../intel/advisory-store/lookup';
import type { MatchStatus } from '../../intel/osv/types';
import {
  type AffectedRow,
  affectedOf,
  type VulnerabilityRow,
  versionsInUse,
  vulnerabilitiesOfPackage,
} from './store';

export interface VersionInUse {
  version: string | null;
  resolution: string;
  repositoryCount: number;
  status: MatchStatus;
}

export interface PackageVulnerabilities {
  pkg: { id: string; ecosystem: string; name: string; purl: string };
  items: { vulnerability: VulnerabilityRow; affected: AffectedRow[]; inUse: VersionInUse[] }[];
  versionsInUse: {
    version: string | null;
    resolution: string;
    repositoryCount: number;
    vulnerabilityIds: string[];
  }[];
}

/**
 * The live vulnerabilities naming a catalogue package, and which of the tenant's versions of it
 * (from its repositories' dependencies, in the tenant's scope) each one affects or possibly
 * affects. Undefined when the package is not in the catalogue.
 */
export async function packageVulnerabilities(
  db: Kysely<DB>,
  packageId: string,
): Promise<PackageVulnerabilities | undefined> {
  const pkg = await db
    .selectFrom('packages')
    .select(['id', 'ecosystem', 'name', 'purl'])
    .where('id', '=', packageId)
    .executeTakeFirst();
  if (!pkg) return undefined;
  const vulnerabilities = (await vulnerabilitiesOfPackage(db, pkg.ecosystem, pkg.name)).filter(
    (v) => v.withdrawn_at === null,
  );
  const members = vulnerabilities.length
    ? await db
        .selectFrom('osv_advisories')
        .select(['id', 'vulnerability_id'])
        .where(
          'vulnerability_id',
          'in',
          vulnerabilities.map((v) => v.id),
        )
        .execute()
    : [];
  const groupOf = new Map(members.map((m) => [m.id, m.vulnerability_id]));
  const affected = (await affectedOf(db, [...groupOf.keys()])).filter(
    (a) => a.ecosystem === pkg.ecosystem && a.name === pkg.name,
  );

  const inUse = await versionsInUse(db, pkg.id);
  const hits = new Map<string, Map<string, VersionInUse>>();
  const perVersion = inUse.map((use) => ({ use, vulnerabilityIds: new Set<string>() }));
  if ((ECOSYSTEMS as readonly string[]).includes(pkg.ecosystem) && inUse.length > 0) {
    const { index, vulnerabilityOf } = await loadIndex(db, [
      { ecosystem: pkg.ecosystem, name: pkg.name },
    ]);
    for (const entry of perVersion) {
      const matches = index.match({
        ecosystem: pkg.ecosystem as Ecosystem,
        name: pkg.name,
        version: entry.use.version,
        resolution: entry.use.resolution as Resolution,
      });
      for (const match of matches) {
        const vulnerabilityId = vulnerabilityOf.get(match.advisory.id);
        if (!vulnerabilityId) continue;
        entry.vulnerabilityIds.add(vulnerabilityId);
        const versions = hits.get(vulnerabilityId) ?? new Map<string, VersionInUse>();
        const key = compositeKey(entry.use.version ?? '', entry.use.resolution);
        // Several advisories of one flaw: an exact match wins over a possible one.
        if (!versions.has(key) || match.status === 'affected') {
          versions.set(key, {
            version: entry.use.version,
            resolution: entry.use.resolution,
            repositoryCount: Number(entry.use.repositories),
            status: match.status,
          });
        }
        hits.set(vulnerabilityId, versions);
      }
    }
  }
  return {
    pkg,
    items: vulnerabilities.map((vulnerability) => ({
      vulnerability,
      affected: affected.filter((a) => groupOf.get(a.advisory_id) === vulnerability.id),
      inUse: [...(hits.get(vulnerability.id)?.values() ?? [])],
    })),
    versionsInUse: perVersion.map(({ use, vulnerabilityIds }) => ({
      version: use.version,
      resolution: use.resolution,
      repositoryCount: Number(use.repositories),
      vulnerabilityIds: [...vulnerabilityIds].sort(),
    })),
  };
}
