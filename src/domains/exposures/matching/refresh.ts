import { type InsertObject, type Kysely, sql } from 'kysely';
import { compositeKey } from '../../../core/composite-key';
import { newId } from '../../../db/ids';
import type { DB } from '../../../db/schema';
import { isMatchable } from '../../../ecosystems/dependency-list';
import { ECOSYSTEMS, type Ecosystem, type Resolution } from '../../../ecosystems/types';
import { loadIndex } from '../../../intel/advisory-store/lookup';
import type { PackageKey } from '../../../intel/advisory-store/store';
import { namesEveryVersion } from '../../../intel/osv/match';
import { isMaliciousId } from '../../../intel/osv/types';
import { applyTriageRules } from '../automatic/triage-apply';
import type { FixedReason, MatchedEntry } from '../tables';
import { type ChangedExposure, changedExposure, EVENT_COLUMNS, emitExposureEvents } from './events';
import { applyReachability } from './reachability';

/**
 * Recomputes a repository's exposures from its stored dependencies and the advisory store, in
 * the caller's tenant transaction. One exposure per (repository, package, version,
 * vulnerability): new matches open one; a match seen again refreshes `last_seen_at` (and reopens a
 * `fixed` one as `open` with `reintroduced_count + 1`); an exposure that no longer matches is
 * closed as `fixed` with why (the dependency left, the advisory was withdrawn, or its ranges no
 * longer include the version). With `packages`, only those packages are looked at: the re-match
 * after an advisory change costs per package it names, not per repository.
 */
export interface RefreshInput {
  tenantId: string;
  repositoryId: string;
  scanId?: string | null;
  packages?: PackageKey[];
}

export interface RefreshResult {
  opened: number;
  reopened: number;
  seen: number;
  fixed: number;
  /** Open exposures a triage rule settled (docs/triage.md). */
  settledByRules?: number;
}

const SUPPORTED = new Set<string>(ECOSYSTEMS);

interface DependencyGroup {
  packageId: string;
  ecosystem: Ecosystem;
  name: string;
  version: string | null;
  resolution: Resolution;
  files: Set<string>;
  /** Set when every row is a Go module swapped out by `replace`: never exactly affected. */
  replacedBy: string | null;
}

interface Computed {
  group: DependencyGroup;
  vulnerabilityId: string;
  advisoryIds: Set<string>;
  entries: MatchedEntry[];
  fixed: Set<string>;
  exact: boolean;
}

const versionKey = (version: string | null) => version ?? '';
const exposureKey = (packageId: string, version: string, vulnerabilityId: string) =>
  compositeKey(packageId, version, vulnerabilityId);

export async function refreshExposures(
  db: Kysely<DB>,
  input: RefreshInput,
): Promise<RefreshResult> {
  const result: RefreshResult = { opened: 0, reopened: 0, seen: 0, fixed: 0 };
  const scoped = input.packages !== undefined;
  if (scoped && input.packages?.length === 0) return result;
  const { groups, keys } = groupDependencies(await dependenciesInScope(db, input));
  const computed = await matchAdvisories(db, groups, keys);
  const byKey = await existingExposures(db, input);
  if (!byKey) return result;
  const changes = await writeMatches(db, input, computed, byKey, result);
  await closeUnmatched(db, groups, byKey, result);
  await applyReachability(db, input.repositoryId);
  // Rules carry triage to new and reopened exposures; what they settle raises no event.
  const settled = await applyTriageRules(db, { repositoryId: input.repositoryId });
  const unsettled = (list: ChangedExposure[]) => list.filter((e) => !settled.has(e.exposureId));
  result.settledByRules = settled.size;
  await emitExposureEvents(db, input, {
    opened: unsettled(changes.opened),
    reopened: unsettled(changes.reopened),
  });
  return result;
}

/** The repository's dependencies, only the given packages' when the refresh names some. */
async function dependenciesInScope(db: Kysely<DB>, input: RefreshInput) {
  let depQuery = db
    .selectFrom('repository_dependencies as d')
    .select([
      'd.package_id',
      'd.ecosystem',
      'd.name',
      'd.version',
      'd.resolution',
      'd.file',
      'd.scope',
      'd.source',
    ])
    .where('d.repository_id', '=', input.repositoryId);
  if (input.packages) {
    const wanted = input.packages;
    depQuery = depQuery.where(
      sql<boolean>`(d.ecosystem, d.name) IN (SELECT * FROM unnest(${wanted.map((p) => p.ecosystem)}::text[], ${wanted.map((p) => p.name)}::text[]))`,
    );
  }
  return depQuery.execute();
}

type DependencyRow = Awaited<ReturnType<typeof dependenciesInScope>>[number];

/** One group per (package, version) of a supported ecosystem, with the files it appears in. */
function groupDependencies(dependencies: readonly DependencyRow[]) {
  const groups = new Map<string, DependencyGroup>();
  const keys = new Map<string, PackageKey>();
  for (const dep of dependencies) {
    if (!SUPPORTED.has(dep.ecosystem) || !isMatchable(dep)) continue;
    const id = compositeKey(dep.package_id, versionKey(dep.version));
    const replacedBy = replacedByOf(dep.source);
    const group = groups.get(id);
    if (group) {
      group.files.add(dep.file);
      if (replacedBy === null) group.replacedBy = null;
      continue;
    }
    groups.set(id, {
      packageId: dep.package_id,
      ecosystem: dep.ecosystem as Ecosystem,
      name: dep.name,
      version: dep.version,
      resolution: dep.resolution,
      files: new Set([dep.file]),
      replacedBy,
    });
    keys.set(compositeKey(dep.ecosystem, dep.name), { ecosystem: dep.ecosystem, name: dep.name });
  }
  return { groups, keys };
}

/** The module or directory that replaced this one (a `replaced` source), else null. */
function replacedByOf(source: unknown): string | null {
  const value = typeof source === 'string' ? (JSON.parse(source) as unknown) : source;
  if (typeof value !== 'object' || value === null) return null;
  const { kind, by } = value as { kind?: unknown; by?: unknown };
  return kind === 'replaced' && typeof by === 'string' ? by : null;
}

/** What the advisory store says about each group, one entry per exposure key. */
async function matchAdvisories(
  db: Kysely<DB>,
  groups: Map<string, DependencyGroup>,
  keys: Map<string, PackageKey>,
): Promise<Map<string, Computed>> {
  const computed = new Map<string, Computed>();
  if (keys.size === 0) return computed;
  const { index, vulnerabilityOf } = await loadIndex(db, [...keys.values()]);
  for (const group of groups.values()) {
    const matches = index.match({
      ecosystem: group.ecosystem,
      name: group.name,
      version: group.version,
      resolution: group.resolution,
    });
    for (const match of matches) {
      const vulnerabilityId = vulnerabilityOf.get(match.advisory.id) as string;
      const key = exposureKey(group.packageId, versionKey(group.version), vulnerabilityId);
      let entry = computed.get(key);
      if (!entry) {
        entry = {
          group,
          vulnerabilityId,
          advisoryIds: new Set(),
          entries: [],
          fixed: new Set(),
          exact: false,
        };
        computed.set(key, entry);
      }
      entry.advisoryIds.add(match.advisory.id);
      entry.entries.push({
        advisoryId: match.advisory.id,
        ranges: match.affected.ranges,
        versions: match.affected.versions.slice(0, 200),
      });
      for (const version of match.fixedVersions) entry.fixed.add(version);
      // A malicious record naming every version is affected whatever is installed.
      const everyVersion = isMaliciousId(match.advisory.id) && namesEveryVersion(match.affected);
      if ((match.status === 'affected' || everyVersion) && group.replacedBy === null) {
        entry.exact = true;
      }
    }
  }
  return computed;
}

async function existingRows(db: Kysely<DB>, input: RefreshInput) {
  let existingQuery = db
    .selectFrom('vulnerability_exposures')
    .select(['id', 'package_id', 'version', 'vulnerability_id', 'status', 'advisory_ids'])
    .where('repository_id', '=', input.repositoryId);
  if (input.packages !== undefined) {
    const packageIds = await packageIdsOf(db, input.packages);
    if (packageIds.length === 0) return null;
    existingQuery = existingQuery.where('package_id', 'in', packageIds);
  }
  return existingQuery.execute();
}

type ExistingExposure = NonNullable<Awaited<ReturnType<typeof existingRows>>>[number];

/**
 * Existing exposures in scope by exposure key (null: none of the named packages is known);
 * those pointing at a vulnerability merged into another follow it, or go when it has one already.
 */
async function existingExposures(
  db: Kysely<DB>,
  input: RefreshInput,
): Promise<Map<string, ExistingExposure> | null> {
  const existing = await existingRows(db, input);
  if (!existing) return null;
  const mergedIds = [...new Set(existing.map((row) => row.vulnerability_id))];
  const redirect = new Map<string, string>();
  if (mergedIds.length > 0) {
    const merged = await db
      .selectFrom('vulnerabilities')
      .select(['id', 'merged_into'])
      .where('id', 'in', mergedIds)
      .where('merged_into', 'is not', null)
      .execute();
    for (const row of merged) redirect.set(row.id, row.merged_into as string);
  }
  const byKey = new Map<string, ExistingExposure>();
  const stale: string[] = [];
  for (const row of existing) {
    const target = redirect.get(row.vulnerability_id);
    if (!target) byKey.set(exposureKey(row.package_id, row.version, row.vulnerability_id), row);
  }
  for (const row of existing) {
    const target = redirect.get(row.vulnerability_id);
    if (!target) continue;
    const key = exposureKey(row.package_id, row.version, target);
    if (byKey.has(key)) {
      stale.push(row.id);
      continue;
    }
    await db
      .updateTable('vulnerability_exposures')
      .set({ vulnerability_id: target })
      .where('id', '=', row.id)
      .execute();
    byKey.set(key, { ...row, vulnerability_id: target });
  }
  if (stale.length > 0) {
    await db.deleteFrom('vulnerability_exposures').where('id', 'in', stale).execute();
  }
  return byKey;
}

/**
 * Opens new matches and refreshes (or reopens) those seen again; each one seen again leaves
 * `byKey`, so what remains there no longer matches.
 */
async function writeMatches(
  db: Kysely<DB>,
  input: RefreshInput,
  computed: Map<string, Computed>,
  byKey: Map<string, ExistingExposure>,
  result: RefreshResult,
): Promise<{ opened: ChangedExposure[]; reopened: ChangedExposure[] }> {
  const now = sql<Date>`now()`;
  const inserts = [];
  const updates: object[] = [];
  const changes = { opened: [] as ChangedExposure[], reopened: [] as ChangedExposure[] };
  for (const [key, match] of computed) {
    const reason =
      !match.exact && match.group.replacedBy !== null
        ? `replaced by ${match.group.replacedBy}`
        : null;
    const fields = {
      resolution: match.group.resolution,
      possibly_affected: !match.exact,
      possibly_affected_reason: reason,
      advisory_ids: [...match.advisoryIds].sort(),
      affected_ranges: JSON.stringify(match.entries),
      fixed_versions: [...match.fixed],
      files: [...match.group.files].sort(),
      last_seen_at: now,
      updated_at: now,
      ...(input.scanId ? { last_scan_id: input.scanId } : {}),
    };
    const row = byKey.get(key);
    if (!row) {
      inserts.push({
        ...fields,
        id: newId(),
        repository_id: input.repositoryId,
        package_id: match.group.packageId,
        ecosystem: match.group.ecosystem,
        package_name: match.group.name,
        version: versionKey(match.group.version),
        vulnerability_id: match.vulnerabilityId,
        status: 'open' as const,
        first_seen_at: now,
        last_scan_id: input.scanId ?? null,
      });
      result.opened++;
      continue;
    }
    byKey.delete(key);
    const reopen = row.status === 'fixed';
    updates.push({
      id: row.id,
      resolution: match.group.resolution,
      possibly_affected: !match.exact,
      reason,
      advisory_ids: fields.advisory_ids,
      affected_ranges: match.entries,
      fixed_versions: fields.fixed_versions,
      files: fields.files,
      scan_id: input.scanId ?? null,
      reopen,
    });
    if (reopen) {
      result.reopened++;
      changes.reopened.push({
        exposureId: row.id,
        packageId: match.group.packageId,
        ecosystem: match.group.ecosystem,
        packageName: match.group.name,
        version: versionKey(match.group.version),
        vulnerabilityId: match.vulnerabilityId,
      });
    } else result.seen++;
  }
  // Matches seen again, in one statement per chunk; a fixed one reopens with its triage cleared.
  for (let i = 0; i < updates.length; i += 500) {
    await sql`
      UPDATE vulnerability_exposures e SET
        resolution = x.resolution,
        possibly_affected = x.possibly_affected,
        possibly_affected_reason = x.reason,
        advisory_ids = ARRAY(SELECT jsonb_array_elements_text(x.advisory_ids)),
        affected_ranges = x.affected_ranges,
        fixed_versions = ARRAY(SELECT jsonb_array_elements_text(x.fixed_versions)),
        files = ARRAY(SELECT jsonb_array_elements_text(x.files)),
        last_seen_at = now(),
        updated_at = now(),
        last_scan_id = COALESCE(x.scan_id, e.last_scan_id),
        status = CASE WHEN x.reopen THEN 'open' ELSE e.status END,
        fixed_at = CASE WHEN x.reopen THEN NULL ELSE e.fixed_at END,
        fixed_reason = CASE WHEN x.reopen THEN NULL ELSE e.fixed_reason END,
        justification = CASE WHEN x.reopen THEN NULL ELSE e.justification END,
        status_reason = CASE WHEN x.reopen THEN NULL ELSE e.status_reason END,
        accepted_until = CASE WHEN x.reopen THEN NULL ELSE e.accepted_until END,
        status_changed_at = CASE WHEN x.reopen THEN now() ELSE e.status_changed_at END,
        status_changed_by_token_id =
          CASE WHEN x.reopen THEN NULL ELSE e.status_changed_by_token_id END,
        triage_rule_id = CASE WHEN x.reopen THEN NULL ELSE e.triage_rule_id END,
        reintroduced_count = e.reintroduced_count + CASE WHEN x.reopen THEN 1 ELSE 0 END
      FROM jsonb_to_recordset(${JSON.stringify(updates.slice(i, i + 500))}::jsonb) AS x(
        id uuid, resolution text, possibly_affected boolean, reason text, advisory_ids jsonb,
        affected_ranges jsonb, fixed_versions jsonb, files jsonb, scan_id uuid, reopen boolean)
      WHERE e.id = x.id`.execute(db);
  }
  changes.opened = await insertOpened(db, inserts);
  return changes;
}

type NewExposure = InsertObject<DB, 'vulnerability_exposures'>;

/** Inserts new exposures; returns those this call inserted (not a concurrent match's). */
async function insertOpened(db: Kysely<DB>, inserts: NewExposure[]): Promise<ChangedExposure[]> {
  const opened: ChangedExposure[] = [];
  for (let i = 0; i < inserts.length; i += 500) {
    const inserted = await db
      .insertInto('vulnerability_exposures')
      .values(inserts.slice(i, i + 500))
      // A concurrent match of the same repository (a scan and a re-match) inserted it first.
      .onConflict((oc) => oc.doNothing())
      .returning(EVENT_COLUMNS)
      .execute();
    opened.push(...inserted.map(changedExposure));
  }
  return opened;
}

/** Closes what no longer matches as `fixed`, saying why. */
async function closeUnmatched(
  db: Kysely<DB>,
  groups: Map<string, DependencyGroup>,
  byKey: Map<string, ExistingExposure>,
  result: RefreshResult,
): Promise<void> {
  const now = sql<Date>`now()`;
  const closing = [...byKey.values()].filter((row) => row.status !== 'fixed');
  if (closing.length === 0) return;
  const present = new Set(
    [...groups.values()].map((g) => compositeKey(g.packageId, versionKey(g.version))),
  );
  const advisoryIds = [...new Set(closing.flatMap((row) => row.advisory_ids))];
  const withdrawn = new Set(
    advisoryIds.length === 0
      ? []
      : (
          await db
            .selectFrom('osv_advisories')
            .select('id')
            .where('id', 'in', advisoryIds)
            .where('withdrawn_at', 'is not', null)
            .execute()
        ).map((row) => row.id),
  );
  const byReason = new Map<FixedReason, string[]>();
  for (const row of closing) {
    let reason: FixedReason;
    if (!present.has(compositeKey(row.package_id, row.version))) reason = 'dependency_removed';
    else if (row.advisory_ids.length > 0 && row.advisory_ids.every((id) => withdrawn.has(id))) {
      reason = 'advisory_withdrawn';
    } else reason = 'no_longer_affected';
    const ids = byReason.get(reason) ?? [];
    ids.push(row.id);
    byReason.set(reason, ids);
  }
  for (const [reason, ids] of byReason) {
    for (let i = 0; i < ids.length; i += 1000) {
      await db
        .updateTable('vulnerability_exposures')
        .set({
          status: 'fixed',
          fixed_at: now,
          fixed_reason: reason,
          status_changed_at: now,
          status_changed_by_token_id: null,
          updated_at: now,
        })
        .where('id', 'in', ids.slice(i, i + 1000))
        .execute();
    }
    result.fixed += ids.length;
  }
}

/** The ids of the catalogue's packages among `packages` (those never seen have none). */
export async function packageIdsOf(db: Kysely<DB>, packages: PackageKey[]): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < packages.length; i += 2000) {
    const part = packages.slice(i, i + 2000);
    const rows = await sql<{ id: string }>`
      SELECT p.id FROM packages p
      JOIN unnest(${part.map((p) => p.ecosystem)}::text[], ${part.map((p) => p.name)}::text[])
        AS wanted(ecosystem, name) ON wanted.ecosystem = p.ecosystem AND wanted.name = p.name`.execute(
      db,
    );
    for (const row of rows.rows) ids.push(row.id);
  }
  return ids;
}

/** Every repository of the tenant that depends on one of `packages`. */
export async function repositoriesUsing(db: Kysely<DB>, packages: PackageKey[]): Promise<string[]> {
  const ids = new Set<string>();
  for (let i = 0; i < packages.length; i += 2000) {
    const part = packages.slice(i, i + 2000);
    const rows = await sql<{ repository_id: string }>`
      SELECT DISTINCT d.repository_id FROM repository_dependencies d
      JOIN unnest(${part.map((p) => p.ecosystem)}::text[], ${part.map((p) => p.name)}::text[])
        AS wanted(ecosystem, name) ON wanted.ecosystem = d.ecosystem AND wanted.name = d.name`.execute(
      db,
    );
    for (const row of rows.rows) ids.add(row.repository_id);
  }
  return [...ids];
}
