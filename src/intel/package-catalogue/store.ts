import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../db/schema';
import type { PackageMetadata, PackageVersionMetadata } from '../../ecosystems/registry-types';
import type { Ecosystem } from '../../ecosystems/types';
import { type PreviousState, previousState } from './changes';
import { versionRiskInputs } from './risk-inputs';
import type { EnrichmentOutcome, PackageMetadataTable, PackageVersionTable } from './tables';

/**
 * Writes and reads of the shared catalogue (package metadata, versions, fetch schedule, health
 * snapshots). Writes run on the system connection from jobs; reads also run inside tenant
 * transactions (the catalogue is readable by every tenant).
 */

export type MetadataRow = Selectable<PackageMetadataTable>;
export type VersionRow = Selectable<PackageVersionTable>;

const DAY_MS = 24 * 3600 * 1000;

/** Derived facts of a registry answer: release span, cadence, newest stable's release and scripts. */
export function deriveFacts(metadata: PackageMetadata, now: Date) {
  const dated = metadata.versions
    .filter((v) => !v.yanked && v.publishedAtUtc)
    .map((v) => ({ v, at: new Date(v.publishedAtUtc as string) }))
    .filter(({ at }) => !Number.isNaN(at.getTime()));
  let first: Date | null = null;
  let last: Date | null = null;
  let lastYear = 0;
  for (const { at } of dated) {
    if (!first || at < first) first = at;
    if (!last || at > last) last = at;
    if (now.getTime() - at.getTime() <= 365 * DAY_MS) lastYear++;
  }
  // Median interval of the last ten stable releases (by time): the usual rhythm, not outliers.
  const stableTimes = dated
    .filter(({ v }) => !v.prerelease)
    .map(({ at }) => at.getTime())
    .sort((a, b) => a - b)
    .slice(-11);
  const gaps: number[] = [];
  for (let i = 1; i < stableTimes.length; i++) {
    gaps.push(((stableTimes[i] as number) - (stableTimes[i - 1] as number)) / DAY_MS);
  }
  gaps.sort((a, b) => a - b);
  const cadence =
    gaps.length === 0
      ? null
      : gaps.length % 2 === 1
        ? (gaps[(gaps.length - 1) / 2] as number)
        : ((gaps[gaps.length / 2 - 1] as number) + (gaps[gaps.length / 2] as number)) / 2;
  const latest = metadata.latestStable
    ? metadata.versions.find((v) => v.version === metadata.latestStable)
    : undefined;
  const latestAt = latest?.publishedAtUtc ? new Date(latest.publishedAtUtc) : null;
  const installScripts =
    latest && latest.hasInstallScripts !== undefined
      ? (latest.installScripts ?? (latest.hasInstallScripts ? ['install'] : []))
      : null;
  return {
    firstReleaseAt: first,
    lastReleaseAt: last,
    releasesLastYear: lastYear,
    cadenceDays: cadence === null ? null : Math.round(cadence * 10) / 10,
    latestStableReleasedAt: latestAt && !Number.isNaN(latestAt.getTime()) ? latestAt : null,
    installScripts,
  };
}

function versionRow(packageId: string, v: PackageVersionMetadata, ordinal: number) {
  const at = v.publishedAtUtc ? new Date(v.publishedAtUtc) : null;
  return {
    package_id: packageId,
    version: v.version.slice(0, 256),
    ordinal,
    published_at: at && !Number.isNaN(at.getTime()) ? at : null,
    deprecated: v.deprecated?.slice(0, 2000) ?? null,
    yanked: v.yanked,
    yanked_reason: v.yankedReason?.slice(0, 2000) ?? null,
    prerelease: v.prerelease,
    licence: v.licence?.slice(0, 500) ?? null,
    maintainers: v.maintainers?.slice(0, 100) ?? null,
    published_by: v.publishedBy ?? null,
    install_scripts:
      v.installScripts ??
      (v.hasInstallScripts ? ['install'] : v.hasInstallScripts === false ? [] : null),
    downloads: v.downloads ?? null,
  };
}

/** Stores a registry answer (versions are replaced only when the content changed). */
export async function saveMetadata(
  db: Kysely<DB>,
  packageId: string,
  metadata: PackageMetadata,
  now: Date,
  /** Runs last in the same transaction, given the state stored before this answer. */
  within?: (trx: Kysely<DB>, previous: PreviousState | null) => Promise<void>,
): Promise<{ metadata: MetadataRow; versions: VersionRow[] }> {
  const facts = deriveFacts(metadata, now);
  const rows = metadata.versions.map((v, i) => versionRow(packageId, v, i));
  const maintainerChanges = metadata.maintainerChanges.slice(-50);
  // From what is stored (also on a 304, whose answer is the stored one revalidated).
  const riskInputs = versionRiskInputs(
    {
      maintainer_changes: maintainerChanges,
      latest: metadata.latest,
      latest_stable: metadata.latestStable,
    },
    rows,
  );
  const columns = {
    status: 'found' as const,
    latest_stable: metadata.latestStable,
    latest: metadata.latest,
    deprecated: metadata.deprecated?.slice(0, 2000) ?? null,
    successor: metadata.successor?.slice(0, 500) ?? null,
    licence: metadata.licence?.slice(0, 500) ?? null,
    repository_url: metadata.repositoryUrl?.slice(0, 2000) ?? null,
    homepage: metadata.homepage?.slice(0, 2000) ?? null,
    description: metadata.description?.slice(0, 2000) ?? null,
    maintainers: metadata.maintainers.slice(0, 200),
    maintainer_changes: JSON.stringify(maintainerChanges),
    downloads: metadata.downloads?.count ?? null,
    downloads_period: metadata.downloads?.period ?? null,
    version_count: metadata.versions.length,
    first_release_at: facts.firstReleaseAt,
    last_release_at: facts.lastReleaseAt,
    latest_stable_released_at: facts.latestStableReleasedAt,
    releases_last_year: facts.releasesLastYear,
    cadence_days: facts.cadenceDays,
    install_scripts: facts.installScripts,
    etag: metadata.etag,
    last_modified: metadata.lastModified,
    notes: JSON.stringify(metadata.notes),
    raw: JSON.stringify(metadata),
    fetched_at: now,
    risk_inputs: JSON.stringify(riskInputs),
  };
  // One transaction: readers never see the metadata without its versions.
  await db.transaction().execute(async (trx) => {
    const previous = within ? await previousState(trx, packageId) : null;
    await trx
      .insertInto('package_metadata')
      .values({ package_id: packageId, ...columns, changed_at: now })
      .onConflict((oc) =>
        oc.column('package_id').doUpdateSet({
          ...columns,
          changed_at: metadata.notModified ? sql`package_metadata.changed_at` : now,
        }),
      )
      .execute();
    if (metadata.notModified) return;
    await trx.deleteFrom('package_versions').where('package_id', '=', packageId).execute();
    await writeVersions(trx, rows);
    await within?.(trx, previous);
  });
  // What was stored, as a reader would get it back (the health snapshot needs no re-read).
  const stored: MetadataRow = {
    package_id: packageId,
    ...columns,
    maintainer_changes: maintainerChanges,
    notes: metadata.notes,
    risk_inputs: riskInputs,
    raw: metadata,
    changed_at: now,
  };
  return { metadata: stored, versions: rows };
}

async function writeVersions(trx: Kysely<DB>, rows: ReturnType<typeof versionRow>[]) {
  // Parameter limit: 13 columns × 1000 rows stays well under 65,535.
  for (let i = 0; i < rows.length; i += 1000) {
    await trx
      .insertInto('package_versions')
      .values(rows.slice(i, i + 1000))
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/**
 * The registry does not know the package (404/410): remembered so it is not asked every time. A
 * package that was found before (unpublished, or taken down as malicious) turns `not_found` too;
 * its last known facts stay for history, and its validators go, so a reappearance is fetched whole.
 */
export async function markNotFound(db: Kysely<DB>, packageId: string, now: Date): Promise<void> {
  await db
    .insertInto('package_metadata')
    .values({
      package_id: packageId,
      status: 'not_found',
      maintainers: [],
      maintainer_changes: JSON.stringify([]),
      notes: JSON.stringify([]),
      raw: null,
      fetched_at: now,
      changed_at: now,
    })
    .onConflict((oc) =>
      oc.column('package_id').doUpdateSet({
        status: 'not_found',
        etag: null,
        last_modified: null,
        fetched_at: now,
        changed_at: sql<Date>`CASE WHEN package_metadata.status = 'not_found'
          THEN package_metadata.changed_at ELSE ${now} END`,
      }),
    )
    .execute();
}

/**
 * What a pass needs to know of each package before asking its registry, for many packages in two
 * statements: the stored answer (for a conditional request) and the versions tenants use (one
 * scan of the dependency rows per pass instead of one per package: on the system connection no
 * tenant prefix narrows that index).
 */
export async function knownBeforeFetch(
  db: Kysely<DB>,
  packageIds: readonly string[],
): Promise<{ previous: Map<string, PackageMetadata>; inUse: Map<string, string[]> }> {
  const previous = new Map<string, PackageMetadata>();
  const inUse = new Map<string, string[]>();
  for (let i = 0; i < packageIds.length; i += 500) {
    const ids = packageIds.slice(i, i + 500);
    const stored = await db
      .selectFrom('package_metadata')
      .select(['package_id', 'raw'])
      .where('package_id', 'in', ids)
      .where('status', '=', 'found')
      .execute();
    for (const row of stored) if (row.raw) previous.set(row.package_id, row.raw as PackageMetadata);
    const used = await db
      .selectFrom('repository_dependencies')
      .select(['package_id', 'version'])
      .distinct()
      .where('package_id', 'in', ids)
      .where('resolution', '=', 'resolved')
      .where('version', 'is not', null)
      .execute();
    for (const row of used) {
      const versions = inUse.get(row.package_id) ?? [];
      // As versionsInUse: at most 100 per package.
      if (row.version && versions.length < 100) versions.push(row.version);
      inUse.set(row.package_id, versions);
    }
  }
  return { previous, inUse };
}

export interface OutcomeRow {
  packageId: string;
  ecosystem: Ecosystem;
  outcome: EnrichmentOutcome;
  dueAt: Date;
  error: string | null;
}

/** The outcomes of one pass, in one statement per 1000 packages (a statement each was most of a pass's writes). */
export async function recordOutcomes(
  db: Kysely<DB>,
  rows: readonly OutcomeRow[],
  now: Date,
): Promise<void> {
  for (let i = 0; i < rows.length; i += 1000) {
    await db
      .insertInto('package_enrichment')
      .values(
        rows.slice(i, i + 1000).map((row) => ({
          package_id: row.packageId,
          ecosystem: row.ecosystem,
          due_at: row.dueAt,
          attempts: row.outcome === 'failed' ? 1 : 0,
          last_attempt_at: now,
          last_outcome: row.outcome,
          last_error: row.error?.slice(0, 1000) ?? null,
        })),
      )
      .onConflict((oc) =>
        oc.column('package_id').doUpdateSet({
          due_at: sql`excluded.due_at`,
          attempts: sql`CASE WHEN excluded.last_outcome = 'failed'
            THEN package_enrichment.attempts + 1 ELSE 0 END`,
          last_attempt_at: sql`excluded.last_attempt_at`,
          last_outcome: sql`excluded.last_outcome`,
          last_error: sql`excluded.last_error`,
        }),
      )
      .execute();
  }
}

/** Marks packages due now (new or stale ones of a scan); keeps an earlier due time. */
export async function markDue(
  db: Kysely<DB>,
  packages: readonly { id: string; ecosystem: string }[],
  now: Date,
): Promise<void> {
  // Chunked: three parameters per row stay far below PostgreSQL's 65,535.
  for (let i = 0; i < packages.length; i += 5000) {
    await db
      .insertInto('package_enrichment')
      .values(
        packages
          .slice(i, i + 5000)
          .map((p) => ({ package_id: p.id, ecosystem: p.ecosystem, due_at: now })),
      )
      .onConflict((oc) =>
        oc.column('package_id').doUpdateSet({
          due_at: sql`least(package_enrichment.due_at, excluded.due_at)`,
        }),
      )
      .execute();
  }
}

/** Of these packages, the ones never fetched or fetched before `staleBefore`. */
export async function missingOrStale(
  db: Kysely<DB>,
  packageIds: readonly string[],
  staleBefore: Date,
): Promise<string[]> {
  const freshIds = new Set<string>();
  for (let i = 0; i < packageIds.length; i += 5000) {
    const fresh = await db
      .selectFrom('package_metadata')
      .select('package_id')
      .where('package_id', 'in', packageIds.slice(i, i + 5000))
      .where('fetched_at', '>=', staleBefore)
      .execute();
    for (const row of fresh) freshIds.add(row.package_id);
  }
  return packageIds.filter((id) => !freshIds.has(id));
}

export async function registryBackoffs(db: Kysely<DB>, now: Date): Promise<Map<string, Date>> {
  const rows = await db
    .selectFrom('registry_backoff')
    .select(['ecosystem', 'until'])
    .where('until', '>', now)
    .execute();
  return new Map(rows.map((r) => [r.ecosystem, r.until]));
}

export async function setRegistryBackoff(
  db: Kysely<DB>,
  ecosystem: Ecosystem,
  until: Date,
  reason: string,
): Promise<void> {
  await db
    .insertInto('registry_backoff')
    .values({ ecosystem, until, reason: reason.slice(0, 500) })
    .onConflict((oc) =>
      oc.column('ecosystem').doUpdateSet({
        until: sql`greatest(registry_backoff.until, excluded.until)`,
        reason: reason.slice(0, 500),
      }),
    )
    .execute();
}

/**
 * Packages due for a fetch: scheduled ones whose time has come, and catalogue packages in use
 * whose metadata went stale (the refresh job). Registries under back-off are skipped.
 */
export async function duePackages(
  db: Kysely<DB>,
  now: Date,
  staleBefore: Date,
  limit: number,
): Promise<{ id: string; ecosystem: string; name: string }[]> {
  const backoffs = [...(await registryBackoffs(db, now)).keys()];
  const due = await db
    .selectFrom('package_enrichment as e')
    .innerJoin('packages as p', 'p.id', 'e.package_id')
    .select(['p.id', 'p.ecosystem', 'p.name'])
    .where('e.due_at', '<=', now)
    .$if(backoffs.length > 0, (q) => q.where('e.ecosystem', 'not in', backoffs))
    .orderBy('e.due_at')
    .limit(limit)
    .execute();
  if (due.length >= limit) return due;
  // Stale metadata of packages someone still depends on (registry sources only).
  const stale = await db
    .selectFrom('package_metadata as m')
    .innerJoin('packages as p', 'p.id', 'm.package_id')
    .select(['p.id', 'p.ecosystem', 'p.name'])
    .where('m.fetched_at', '<', staleBefore)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom('repository_dependencies as d')
          .select(sql`1`.as('one'))
          .whereRef('d.package_id', '=', 'm.package_id'),
      ),
    )
    .$if(backoffs.length > 0, (q) => q.where('p.ecosystem', 'not in', backoffs))
    .orderBy('m.fetched_at')
    .limit(limit - due.length)
    .execute();
  const seen = new Set(due.map((d) => d.id));
  return [...due, ...stale.filter((s) => !seen.has(s.id))];
}

export async function saveHealthSnapshot(
  db: Kysely<DB>,
  packageId: string,
  now: Date,
  signals: unknown,
  defaultScore: number | null,
): Promise<void> {
  const day = now.toISOString().slice(0, 10);
  await db
    .insertInto('package_health_snapshots')
    .values({
      package_id: packageId,
      snapshot_date: day,
      computed_at: now,
      signals: JSON.stringify(signals),
      default_score: defaultScore,
    })
    .onConflict((oc) =>
      oc.columns(['package_id', 'snapshot_date']).doUpdateSet({
        computed_at: now,
        signals: JSON.stringify(signals),
        default_score: defaultScore,
      }),
    )
    .execute();
}

/** The default-weights score of the package's newest snapshot (undefined: none yet). */
export async function latestScore(
  db: Kysely<DB>,
  packageId: string,
): Promise<number | null | undefined> {
  const row = await db
    .selectFrom('package_health_snapshots')
    .select('default_score')
    .where('package_id', '=', packageId)
    .orderBy('snapshot_date', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.default_score;
}

export async function metadataOf(
  db: Kysely<DB>,
  packageId: string,
): Promise<MetadataRow | undefined> {
  return db
    .selectFrom('package_metadata')
    .selectAll()
    .where('package_id', '=', packageId)
    .executeTakeFirst();
}

export async function versionsOf(db: Kysely<DB>, packageId: string): Promise<VersionRow[]> {
  return db
    .selectFrom('package_versions')
    .selectAll()
    .where('package_id', '=', packageId)
    .orderBy('ordinal')
    .execute();
}
