import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { iso } from '../../core/iso-time';
import { badRequest, notFound } from '../../core/problem';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { pageOf, parseEnum, parseTimeWindow } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { UuidParam, withErrors } from '../../http/schemas';
import { tenantDb } from '../../http/scope';
import { SEVERITY_RATINGS } from '../../intel/osv/types';
import {
  PackageVulnerabilities,
  VulnerabilityDetail,
  VulnerabilityIdParam,
  VulnerabilityListQuery,
  VulnerabilityPage,
} from './schemas';
import { packageVulnerabilities } from './service';
import {
  type AffectedRow,
  advisoriesOf,
  affectedOf,
  exposureCounts,
  findVulnerability,
  listVulnerabilities,
  type VulnerabilityRow,
} from './store';

const num = (value: string | number | null) => (value === null ? null : Number(value));
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:+-]{0,255}$/;

function present(row: VulnerabilityRow) {
  return {
    vulnerabilityId: row.id,
    canonicalId: row.canonical_id,
    kind: row.kind,
    aliases: row.aliases,
    summary: row.summary,
    severity: row.severity_rating,
    severityScore: num(row.severity_score),
    severityVector: row.severity_vector,
    severitySource: row.severity_type,
    ecosystems: row.ecosystems,
    publishedUtc: iso(row.published_at),
    modifiedUtc: row.modified_at.toISOString(),
    withdrawnUtc: iso(row.withdrawn_at),
  };
}

function presentAffected(row: AffectedRow) {
  return {
    advisoryId: row.advisory_id,
    ecosystem: row.ecosystem,
    osvEcosystem: row.osv_ecosystem,
    name: row.name,
    packageId: row.package_id ?? null,
    ranges: row.ranges,
    versions: row.versions,
    fixedVersions: row.fixed_versions,
    withdrawn: row.withdrawn,
  };
}

function union(lists: string[][]): string[] {
  return [...new Set(lists.flat())];
}

export function vulnerabilityRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    vulnerabilityListRoute(app);
    vulnerabilityDetailRoute(app);
    packageVulnerabilitiesRoute(app);
  };
}

/** GET /api/v1/vulnerabilities: the list, with filters. */
function vulnerabilityListRoute(app: RouteApp): void {
  app.get(
    '/api/v1/vulnerabilities',
    {
      schema: {
        tags: ['Vulnerabilities'],
        summary: 'List vulnerabilities (alias-joined OSV advisories), newest published first',
        querystring: VulnerabilityListQuery,
        response: withErrors({ 200: VulnerabilityPage }),
      },
      config: { role: 'viewer', reads: 'replica' },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      const window = parseTimeWindow(
        { fromUtc: query.publishedFromUtc, toUtc: query.publishedToUtc },
        { from: 'publishedFromUtc', to: 'publishedToUtc' },
      );
      const { rows, total } = await listVulnerabilities(
        tenantDb(request),
        {
          severity: parseEnum('severity', query.severity, SEVERITY_RATINGS),
          ecosystem: parseEnum('ecosystem', query.ecosystem, ECOSYSTEMS),
          search: query.search?.trim() || undefined,
          publishedFrom: window.from,
          publishedTo: window.to,
          includeWithdrawn: query.includeWithdrawn === true,
        },
        page,
      );
      return { items: rows.map(present), totalEstimate: total, ...page };
    },
  );
}

/** GET /api/v1/vulnerabilities/{id}: one vulnerability by id or advisory identifier. */
function vulnerabilityDetailRoute(app: RouteApp): void {
  app.get(
    '/api/v1/vulnerabilities/:vulnerabilityId',
    {
      schema: {
        tags: ['Vulnerabilities'],
        summary: 'One vulnerability: advisories, aliases, severity, affected packages and ranges',
        params: VulnerabilityIdParam,
        response: withErrors({ 200: VulnerabilityDetail }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { vulnerabilityId } = request.params;
      if (!IDENTIFIER.test(vulnerabilityId)) {
        throw badRequest('Not a vulnerability id or identifier.', {
          vulnerabilityId: ['must be a UUID or an advisory identifier such as CVE-2021-44228'],
        });
      }
      const db = tenantDb(request);
      const row = await findVulnerability(db, vulnerabilityId);
      if (!row) throw notFound('The vulnerability');
      const advisories = await advisoriesOf(db, row.id);
      const affected = await affectedOf(
        db,
        advisories.map((a) => a.id),
      );
      const references = new Map<string, { type: string; url: string }>();
      for (const advisory of advisories) {
        for (const ref of advisory.refs) if (!references.has(ref.url)) references.set(ref.url, ref);
      }
      return {
        ...present(row),
        details: row.details,
        advisories: advisories.map((a) => ({
          id: a.id,
          summary: a.summary,
          severity: a.severity_rating,
          severityScore: num(a.severity_score),
          severityVector: a.severity_vector,
          publishedUtc: iso(a.published_at),
          modifiedUtc: a.modified_at.toISOString(),
          withdrawnUtc: iso(a.withdrawn_at),
        })),
        affected: affected.map(presentAffected),
        fixedVersions: union(affected.filter((a) => !a.withdrawn).map((a) => a.fixed_versions)),
        references: [...references.values()],
        exposures: await exposureCounts(db, row.id),
      };
    },
  );
}

/** GET /api/v1/packages/{packageId}/vulnerabilities. */
function packageVulnerabilitiesRoute(app: RouteApp): void {
  app.get(
    '/api/v1/packages/:packageId/vulnerabilities',
    {
      schema: {
        tags: ['Vulnerabilities'],
        summary:
          "Vulnerabilities affecting a catalogue package, and which of the tenant's versions in use they affect",
        params: UuidParam('packageId'),
        response: withErrors({ 200: PackageVulnerabilities }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { packageId } = request.params;
      const found = await packageVulnerabilities(tenantDb(request), packageId);
      if (!found) throw notFound('The package');
      return {
        packageId: found.pkg.id,
        ecosystem: found.pkg.ecosystem,
        name: found.pkg.name,
        purl: found.pkg.purl,
        items: found.items.map((item) => ({
          ...present(item.vulnerability),
          affected: item.affected.map(presentAffected),
          fixedVersions: union(
            item.affected.filter((a) => !a.withdrawn).map((a) => a.fixed_versions),
          ),
          affectedVersionsInUse: item.inUse,
        })),
        total: found.items.length,
        versionsInUse: found.versionsInUse,
      };
    },
  );
}
