import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { iso } from '../../core/iso-time';
import { notFound } from '../../core/problem';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { pageOf, parseEnum } from '../../http/query';
import { UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import { FINDING_KINDS, SEVERITY_RATINGS } from '../../intel/osv/types';
import { REACHABILITIES } from '../../intel/reachability/analyse';
import { Exposure, ExposureListQuery, ExposurePage, TriageRequest } from './schemas';
import { triageExposure } from './service';
import { type ExposureRow, findExposure, listExposures, reopenExpiredAcceptances } from './store';
import { EXPOSURE_STATUSES } from './tables';

export function presentExposure(row: ExposureRow) {
  return {
    exposureId: row.id,
    repositoryId: row.repository_id,
    packageId: row.package_id,
    purl: row.purl,
    ecosystem: row.ecosystem,
    packageName: row.package_name,
    version: row.version === '' ? null : row.version,
    resolution: row.resolution,
    kind: row.kind,
    reachability: row.reachability,
    reachabilityEvidence: row.reachability_evidence ?? null,
    reachabilityReason: row.reachability_reason,
    possiblyAffected: row.possibly_affected,
    possiblyAffectedReason: row.possibly_affected_reason,
    vulnerabilityId: row.vulnerability_id,
    canonicalId: row.canonical_id,
    aliases: row.aliases,
    advisoryIds: row.advisory_ids,
    summary: row.summary,
    severity: row.severity_rating,
    severityScore: row.severity_score === null ? null : Number(row.severity_score),
    severityVector: row.severity_vector,
    affectedRanges: row.affected_ranges,
    fixedVersions: row.fixed_versions,
    files: row.files,
    status: row.status,
    justification: row.justification,
    reason: row.status_reason,
    expiresAtUtc: iso(row.accepted_until),
    statusChangedAtUtc: iso(row.status_changed_at),
    statusChangedByTokenId: row.status_changed_by_token_id,
    fixedReason: row.fixed_reason,
    firstSeenUtc: row.first_seen_at.toISOString(),
    lastSeenUtc: row.last_seen_at.toISOString(),
    fixedUtc: iso(row.fixed_at),
    reintroducedCount: row.reintroduced_count,
    lastScanId: row.last_scan_id,
    triageRuleId: row.triage_rule_id,
  };
}

export function exposureRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/api/v1/vulnerability-exposures',
      {
        schema: {
          tags: ['Vulnerability exposures'],
          summary: "List the tenant's vulnerability exposures (newest first)",
          querystring: ExposureListQuery,
          response: withErrors({ 200: ExposurePage }),
        },
        config: { role: 'viewer', reads: 'replica' },
      },
      async (request) => {
        const query = request.query;
        const page = pageOf(query);
        const filter = {
          repositoryId: query.repositoryId,
          packageId: query.packageId,
          vulnerabilityId: query.vulnerabilityId,
          triageRuleId: query.triageRuleId,
          possiblyAffected: query.possiblyAffected,
          reachability: parseEnum('reachability', query.reachability, REACHABILITIES),
          kind: parseEnum('kind', query.kind, FINDING_KINDS),
          severity: parseEnum('severity', query.severity, SEVERITY_RATINGS),
          status: parseEnum('status', query.status, EXPOSURE_STATUSES),
          ecosystem: parseEnum('ecosystem', query.ecosystem, ECOSYSTEMS),
        };
        const db = tenantDb(request);
        await reopenExpiredAcceptances(db, principalOf(request).tenantId);
        const { rows, total } = await listExposures(db, filter, page);
        return { items: rows.map(presentExposure), totalEstimate: total, ...page };
      },
    );

    app.get(
      '/api/v1/vulnerability-exposures/:exposureId',
      {
        schema: {
          tags: ['Vulnerability exposures'],
          summary: 'One vulnerability exposure',
          params: UuidParam('exposureId'),
          response: withErrors({ 200: Exposure }, [404]),
        },
        config: { role: 'viewer' },
      },
      async (request) => {
        const { exposureId } = request.params;
        const db = tenantDb(request);
        await reopenExpiredAcceptances(db, principalOf(request).tenantId);
        const row = await findExposure(db, exposureId);
        if (!row) throw notFound('The vulnerability exposure');
        return presentExposure(row);
      },
    );

    app.patch(
      '/api/v1/vulnerability-exposures/:exposureId',
      {
        schema: {
          tags: ['Vulnerability exposures'],
          summary:
            'Triage an exposure: open, investigating, affected, not_affected (justification), false_positive, accepted_risk (reason, expiresAtUtc)',
          params: UuidParam('exposureId'),
          body: TriageRequest,
          response: withErrors({ 200: Exposure }, [404, 413, 415, 422]),
        },
        config: {
          role: 'member',
          audit: {
            action: 'vulnerability_exposure.triage',
            resourceType: 'vulnerability_exposure',
          },
        },
      },
      async (request) => {
        const { exposureId } = request.params;
        const details: Record<string, unknown> = {};
        request.auditDetails = details;
        const outcome = await triageExposure(
          tenantDb(request),
          principalOf(request),
          exposureId,
          request.body,
          details,
        );
        return presentExposure(outcome.exposure);
      },
    );
  };
}
