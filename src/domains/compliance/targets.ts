import { type Kysely, sql } from 'kysely';
import type { DB } from '../../db/schema';

export const TARGET_SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type TargetSeverity = (typeof TARGET_SEVERITIES)[number];

export type RemediationTargets = Record<TargetSeverity, number>;

/**
 * Days from detection to fix when the tenant set none (docs/compliance.md#remediation-targets):
 * the common SLA ladder of vulnerability-management programmes (critical within a week, high
 * within a month, medium within a quarter, low within half a year).
 */
export const DEFAULT_TARGETS: RemediationTargets = { critical: 7, high: 30, medium: 90, low: 180 };

export interface TargetSettings {
  targets: RemediationTargets;
  /** default: nobody set them; tenant: set through PUT /api/v1/compliance/settings. */
  source: 'default' | 'tenant';
  updatedAtUtc: string | null;
  updatedByTokenId: string | null;
}

export async function readTargets(db: Kysely<DB>): Promise<TargetSettings> {
  const row = await db.selectFrom('compliance_settings').selectAll().executeTakeFirst();
  if (!row) {
    return {
      targets: DEFAULT_TARGETS,
      source: 'default',
      updatedAtUtc: null,
      updatedByTokenId: null,
    };
  }
  return {
    targets: {
      critical: row.critical_days,
      high: row.high_days,
      medium: row.medium_days,
      low: row.low_days,
    },
    source: 'tenant',
    updatedAtUtc: row.updated_at.toISOString(),
    updatedByTokenId: row.updated_by_token_id,
  };
}

/** Replaces the tenant's targets (absolute values: a repeat is the same). */
export async function writeTargets(
  db: Kysely<DB>,
  targets: RemediationTargets,
  tokenId: string | null,
): Promise<TargetSettings> {
  const values = {
    critical_days: targets.critical,
    high_days: targets.high,
    medium_days: targets.medium,
    low_days: targets.low,
    updated_by_token_id: tokenId,
  };
  await db
    .insertInto('compliance_settings')
    .values(values)
    .onConflict((oc) =>
      oc.column('tenant_id').doUpdateSet({ ...values, updated_at: sql<Date>`now()` }),
    )
    .execute();
  return readTargets(db);
}

/** The target an exposure is held to; an unrated vulnerability is held to the medium one. */
export function targetFor(targets: RemediationTargets, severity: string | null): number {
  const known = TARGET_SEVERITIES.find((s) => s === severity);
  return targets[known ?? 'medium'];
}
