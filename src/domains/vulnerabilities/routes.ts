import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ECOSYSTEMS, type Ecosystem, type Resolution } from '../../ecosystems/types';
import { badRequest, notFound } from '../../http/problem';
import { pageOf, parseEnum, parseTimeWindow } from '../../http/query';
import { UuidParam, withErrors } from '../../http/schemas';
import { tenantDb } from '../../http/scope';
import { loadIndex } from '../../intel/advisory-store/lookup';
import { SEVERITY_RATINGS } from '../../intel/osv/types';
import {
  PackageVulnerabilities,
  VulnerabilityDetail,
  VulnerabilityIdParam,
  VulnerabilityListQuery,
  VulnerabilityPage,
} from './schemas';
import {
  advisoriesOf,
  affectedOf,
  findVulnerability,
  listVulnerabilities,
  type VulnerabilityRow,
  versionsInUse,
  vulnerabilitiesOfPackage,
} from './store';

const iso = (date: Date | null) => (date ? date.toISOString() : null);
const num = (value: string | number | null) => (value === null ? null : Number(value));
const IDENTIFIER = /^[A-Za-z0-9][A-Za-z0-9._:+-]{0,255}$/;

function present(row: VulnerabilityRow) {
  return {
    vulnerabilityId: row.id,
    canonicalId: row.canonical_id,
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

type AffectedRow = Awaited<ReturnType<typeof affectedOf>>[number];

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
    app.get(
      '/api/v1/vulnerabilities',
      {
        schema: {
          tags: ['Vulnerabilities'],
          summary: 'List vulnerabilities (alias-joined OSV advisories), newest published first',
          querystring: VulnerabilityListQuery,
          response: withErrors({ 200: VulnerabilityPage }),
        },
        config: { role: 'viewer' },
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
            severity: parseEnum('severity', query.severity as string | undefined, SEVERITY_RATINGS),
            ecosystem: parseEnum('ecosystem', query.ecosystem as string | undefined, ECOSYSTEMS),
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
        const { vulnerabilityId } = request.params as { vulnerabilityId: string };
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
          for (const ref of advisory.refs)
            if (!references.has(ref.url)) references.set(ref.url, ref);
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
        };
      },
    );

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
        const { packageId } = request.params as { packageId: string };
        const db = tenantDb(request);
        const pkg = await db
          .selectFrom('packages')
          .select(['id', 'ecosystem', 'name', 'purl'])
          .where('id', '=', packageId)
          .executeTakeFirst();
        if (!pkg) throw notFound('The package');
        const vulnerabilities = (
          await vulnerabilitiesOfPackage(db, pkg.ecosystem, pkg.name)
        ).filter((v) => v.withdrawn_at === null);
        const advisoryIds = vulnerabilities.length
          ? (
              await db
                .selectFrom('osv_advisories')
                .select('id')
                .where(
                  'vulnerability_id',
                  'in',
                  vulnerabilities.map((v) => v.id),
                )
                .execute()
            ).map((a) => a.id)
          : [];
        const affected = (await affectedOf(db, advisoryIds)).filter(
          (a) => a.ecosystem === pkg.ecosystem && a.name === pkg.name,
        );
        const inUse = await versionsInUse(db, pkg.id);
        const hits = new Map<
          string,
          Map<string, { row: (typeof inUse)[number]; status: string }>
        >();
        const byVersion = inUse.map((use) => ({ use, vulnerabilityIds: new Set<string>() }));
        if ((ECOSYSTEMS as readonly string[]).includes(pkg.ecosystem) && inUse.length > 0) {
          const { index, vulnerabilityOf } = await loadIndex(db, [
            { ecosystem: pkg.ecosystem, name: pkg.name },
          ]);
          for (const entry of byVersion) {
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
              const perVulnerability = hits.get(vulnerabilityId) ?? new Map();
              const key = `${entry.use.version ?? ''}\u0000${entry.use.resolution}`;
              const seen = perVulnerability.get(key);
              if (!seen || match.status === 'affected') {
                perVulnerability.set(key, { row: entry.use, status: match.status });
              }
              hits.set(vulnerabilityId, perVulnerability);
            }
          }
        }
        const advisoryToVulnerability = new Map<string, string>();
        if (advisoryIds.length > 0) {
          const rows = await db
            .selectFrom('osv_advisories')
            .select(['id', 'vulnerability_id'])
            .where('id', 'in', advisoryIds)
            .execute();
          for (const row of rows) advisoryToVulnerability.set(row.id, row.vulnerability_id);
        }
        return {
          packageId: pkg.id,
          ecosystem: pkg.ecosystem,
          name: pkg.name,
          purl: pkg.purl,
          items: vulnerabilities.map((v) => {
            const entries = affected.filter(
              (a) => advisoryToVulnerability.get(a.advisory_id) === v.id,
            );
            return {
              ...present(v),
              affected: entries.map(presentAffected),
              fixedVersions: union(
                entries.filter((a) => !a.withdrawn).map((a) => a.fixed_versions),
              ),
              affectedVersionsInUse: [...(hits.get(v.id)?.values() ?? [])].map(
                ({ row, status }) => ({
                  version: row.version,
                  resolution: row.resolution,
                  repositoryCount: Number(row.repositories),
                  status,
                }),
              ),
            };
          }),
          total: vulnerabilities.length,
          versionsInUse: byVersion.map(({ use, vulnerabilityIds }) => ({
            version: use.version,
            resolution: use.resolution,
            repositoryCount: Number(use.repositories),
            vulnerabilityIds: [...vulnerabilityIds].sort(),
          })),
        };
      },
    );
  };
}
