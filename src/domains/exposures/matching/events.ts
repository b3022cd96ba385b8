import { type Kysely, type Selectable, sql } from 'kysely';
import type { DB } from '../../../db/schema';
import { changedPackageIds, type ExposureSummary, emitEvent } from '../../events';
import type { VulnerabilityExposureTable } from '../tables';

/** An exposure a refresh opened or reopened, before its vulnerability's names are read. */
export interface ChangedExposure {
  exposureId: string;
  packageId: string;
  ecosystem: string;
  packageName: string;
  version: string;
  vulnerabilityId: string;
}

/** The columns of an exposure row its event needs (`changedExposure`). */
export const EVENT_COLUMNS = [
  'id',
  'package_id',
  'ecosystem',
  'package_name',
  'version',
  'vulnerability_id',
] as const;

type EventRow = Pick<Selectable<VulnerabilityExposureTable>, (typeof EVENT_COLUMNS)[number]>;

/** An exposure row as its event names it. */
export function changedExposure(row: EventRow): ChangedExposure {
  return {
    exposureId: row.id,
    packageId: row.package_id,
    ecosystem: row.ecosystem,
    packageName: row.package_name,
    version: row.version,
    vulnerabilityId: row.vulnerability_id,
  };
}

const CHUNK = 500;

/**
 * Emits `exposures.opened` and `exposures.reopened` for what one refresh changed, in its
 * transaction (docs/events.md): one event per kind of change and 500 exposures, each exposure
 * with its vulnerability's canonical id, severity and kind as they are now; and
 * `exposures.malicious_found` for the malicious-package ones among both.
 */
export async function emitExposureEvents(
  db: Kysely<DB>,
  scope: { tenantId: string; repositoryId: string; scanId?: string | null },
  changes: { opened: ChangedExposure[]; reopened: ChangedExposure[] },
): Promise<void> {
  const all = [...changes.opened, ...changes.reopened];
  if (all.length === 0) return;
  const ids = [...new Set(all.map((e) => e.vulnerabilityId))];
  const { rows } = await sql<{
    id: string;
    canonical_id: string;
    severity_rating: string | null;
    kind: string;
  }>`
    SELECT id, canonical_id, severity_rating, kind FROM vulnerabilities
    WHERE id = ANY(${ids}::uuid[])`.execute(db);
  const names = new Map(rows.map((row) => [row.id, row]));
  const summary = (e: ChangedExposure): ExposureSummary => ({
    exposureId: e.exposureId,
    packageId: e.packageId,
    ecosystem: e.ecosystem,
    packageName: e.packageName,
    version: e.version === '' ? null : e.version,
    vulnerabilityId: e.vulnerabilityId,
    canonicalId: names.get(e.vulnerabilityId)?.canonical_id ?? e.vulnerabilityId,
    severity: names.get(e.vulnerabilityId)?.severity_rating ?? null,
    kind: names.get(e.vulnerabilityId)?.kind === 'malicious' ? 'malicious' : 'vulnerability',
  });
  const malicious = [
    ...changes.opened.map((e) => ({ ...summary(e), reintroduced: false })),
    ...changes.reopened.map((e) => ({ ...summary(e), reintroduced: true })),
  ].filter((e) => e.kind === 'malicious');
  const events = [
    ['exposures.opened', changes.opened],
    ['exposures.reopened', changes.reopened],
  ] as const;
  for (const [event, list] of events) {
    for (let i = 0; i < list.length; i += CHUNK) {
      await emitEvent(db, event, {
        tenantId: scope.tenantId,
        data: {
          repositoryId: scope.repositoryId,
          scanId: scope.scanId ?? null,
          exposures: list.slice(i, i + CHUNK).map(summary),
        },
      });
    }
  }
  for (let i = 0; i < malicious.length; i += CHUNK) {
    await emitEvent(db, 'exposures.malicious_found', {
      tenantId: scope.tenantId,
      data: {
        repositoryId: scope.repositoryId,
        scanId: scope.scanId ?? null,
        exposures: malicious.slice(i, i + CHUNK),
      },
    });
  }
}

/**
 * `exposures.status_changed` for each repository whose exposures' statuses changed outside a
 * refresh (a person's triage, a triage rule, an acceptance's expiry), in the change's transaction,
 * naming the packages of those exposures: the status is a fact of policies
 * (vulnerabilities.items[].status), which evaluate those dependencies again, and the dashboard's
 * rollups refresh on it (a refresh's changes are announced by `exposures.refreshed`).
 */
export async function emitStatusChanged(
  db: Kysely<DB>,
  tenantId: string,
  changes: Iterable<{ repositoryId: string; packageId: string }>,
  correlationId: string | null = null,
): Promise<void> {
  const byRepository = new Map<string, string[]>();
  for (const { repositoryId, packageId } of changes) {
    const list = byRepository.get(repositoryId) ?? [];
    list.push(packageId);
    byRepository.set(repositoryId, list);
  }
  for (const [repositoryId, packageIds] of byRepository) {
    await emitEvent(db, 'exposures.status_changed', {
      tenantId,
      data: { repositoryId, packageIds: changedPackageIds(packageIds) },
      correlationId,
    });
  }
}
