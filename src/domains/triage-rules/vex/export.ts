import type { Kysely } from 'kysely';
import { notFound, ProblemError } from '../../../core/problem';
import type { DB } from '../../../db/schema';
import { getEcosystem } from '../../../ecosystems/ecosystem-list';
import { ECOSYSTEMS, type Ecosystem } from '../../../ecosystems/types';
import { formatVers, parseVers } from '../../../ecosystems/vers';
import type { ExposureStatus } from '../../exposures/tables';
import { readPackageJson } from '../../system/build-info';
import { knownRepositories } from '../store';
import { repositoryIdentity } from './repository-identity';
import { decidedExposures, liveRulesForExport, repositoryAddresses, tenantName } from './store';
import {
  type Decision,
  type ExportContext,
  type StatementStatus,
  writeCycloneDxVex,
  writeOpenVex,
} from './write';

/** Exporting a tenant's decisions as VEX (docs/triage.md#vex): its live rules, and the
 * statuses people gave exposures of exact versions that no rule carries. */
export const VEX_FORMATS = ['openvex', 'cyclonedx'] as const;
export type VexFormat = (typeof VEX_FORMATS)[number];

export const VEX_MEDIA_TYPES: Record<VexFormat, string> = {
  openvex: 'application/json',
  cyclonedx: 'application/vnd.cyclonedx+json; version=1.6',
};

const SUPPORTED = new Set<string>(ECOSYSTEMS);
const STATEMENT_STATUS: Partial<Record<ExposureStatus, StatementStatus>> = {
  investigating: 'under_investigation',
  affected: 'affected',
  not_affected: 'not_affected',
  false_positive: 'false_positive',
  accepted_risk: 'accepted_risk',
};

function exactRange(ecosystem: string, version: string): string | null {
  const parsed = parseVers(
    `vers:${getEcosystem(ecosystem as Ecosystem).purlType}/${encodeURIComponent(version)}`,
  );
  return parsed.ok ? formatVers(parsed.value) : null;
}

/** A repository as a document names it: its normalised address, the same in every tenant. */
const portableAddress = (cloneUrl: string) => repositoryIdentity(cloneUrl)?.uri ?? cloneUrl;

async function decisionsOf(db: Kysely<DB>, repositoryId: string | null): Promise<Decision[]> {
  const urls = new Map(
    (await repositoryAddresses(db)).map((r) => [r.id, portableAddress(r.clone_url)]),
  );
  const decisions: Decision[] = [];
  for (const rule of await liveRulesForExport(db, repositoryId)) {
    const scoped = rule.repository_ids.filter((id) => !repositoryId || id === repositoryId);
    const repositories = rule.repository_ids.length === 0 ? [null] : scoped;
    decisions.push({
      vulnerability: rule.vulnerability_ref,
      status: rule.status,
      justification: rule.justification,
      reason: rule.reason,
      expiresAt: rule.status === 'accepted_risk' ? rule.expires_at : null,
      decidedAt: rule.created_at,
      products: repositories.map((id) => ({
        ecosystem: rule.ecosystem,
        packageName: rule.package_name,
        versionRange: rule.version_range,
        repositoryUrl: id === null ? null : (urls.get(id) ?? null),
      })),
    });
  }
  for (const exposure of await decidedExposures(db, repositoryId)) {
    if (!SUPPORTED.has(exposure.ecosystem)) continue;
    const versionRange = exactRange(exposure.ecosystem, exposure.version);
    if (!versionRange) continue;
    const status = STATEMENT_STATUS[exposure.status];
    if (!status) continue;
    decisions.push({
      vulnerability: exposure.vulnerability,
      status,
      justification: exposure.justification,
      reason: exposure.status_reason,
      expiresAt: exposure.status === 'accepted_risk' ? exposure.accepted_until : null,
      decidedAt: exposure.status_changed_at ?? exposure.updated_at,
      products: [
        {
          ecosystem: exposure.ecosystem,
          packageName: exposure.package_name,
          versionRange,
          repositoryUrl: portableAddress(exposure.clone_url),
        },
      ],
    });
  }
  return decisions;
}

export async function exportVex(
  db: Kysely<DB>,
  tenantId: string,
  options: { format: VexFormat; repositoryId: string | null; now: Date },
): Promise<Record<string, unknown>> {
  const { format, repositoryId } = options;
  if (repositoryId && !(await knownRepositories(db, [repositoryId])).has(repositoryId)) {
    throw notFound('The repository');
  }
  const decisions = await decisionsOf(db, repositoryId);
  if (format === 'openvex' && decisions.length === 0) {
    // OpenVEX needs at least one statement: an empty document would be invalid, not empty.
    throw new ProblemError(
      404,
      `There is no decision to export${repositoryId ? ' for this repository' : ''}: an OpenVEX document needs at least one statement (format=cyclonedx answers an empty document).`,
    );
  }
  const name = (await tenantName(db, tenantId)) ?? tenantId;
  const context: ExportContext = {
    author: `${name} (Driftwatch tenant)`,
    toolName: 'Driftwatch',
    toolVersion: readPackageJson().version,
    issuedAt: options.now,
    scope: `${tenantId}:${repositoryId ?? '*'}`,
  };
  return format === 'openvex'
    ? writeOpenVex(decisions, context)
    : writeCycloneDxVex(decisions, context);
}
