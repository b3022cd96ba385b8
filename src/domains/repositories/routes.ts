import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { Type } from 'typebox';
import type { Config } from '../../config';
import { notFound } from '../../core/problem';
import type { Database } from '../../db/connection';
import { ECOSYSTEMS } from '../../ecosystems/types';
import { enumQuery, pageOf, parseEnum, TakeSkipQuery } from '../../http/query';
import { requestScope } from '../../http/request-scope';
import type { RouteApp } from '../../http/route-app';
import { NoContent, TotalEstimatePage, Uuid, UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { SecretBox } from '../../security/secret-box';
import { findActiveScan } from '../scans/store';
import { COUNTED_DEPENDENCY_SQL } from './counted-dependencies';
import { buildGraph } from './graph';
import { importRepositories } from './import';
import { riskSummary } from './risk-summary';
import {
  DependencyGraph,
  ImportRepositoriesRequest,
  ImportRepositoriesResult,
  presentDependency,
  presentRepository,
  Repository,
  RepositoryDependency,
  RepositoryDetail,
  RiskSummary,
  UpdateRepositoryRequest,
} from './schemas';
import { removeRepository, updateRepository } from './service';
import {
  allDependencies,
  BUSINESS_CRITICALITIES,
  findRepository,
  LIFECYCLE_STATUSES,
  listDependencies,
  listRepositories,
} from './store';

const RepositoryListQuery = Type.Object({
  workspaceId: Type.Optional(Uuid),
  teamId: Type.Optional(Uuid),
  businessCriticality: enumQuery(BUSINESS_CRITICALITIES, 'Business criticality:'),
  lifecycleStatus: enumQuery(LIFECYCLE_STATUSES, 'Lifecycle status:'),
  search: Type.Optional(
    Type.String({
      maxLength: 200,
      // Control characters (NUL above all) could never match and PostgreSQL refuses NUL: a 400.
      pattern: '^[^\\u0000-\\u001f\\u007f]*$',
      description:
        "Case-insensitive substring of the repository's full name (owner/name); at most 200 characters, no control characters",
    }),
  ),
  ...TakeSkipQuery,
});

const DependencyListQuery = Type.Object({
  ecosystem: enumQuery(ECOSYSTEMS, 'Ecosystem:'),
  direct: Type.Optional(
    Type.Boolean({
      description:
        "true: direct only; false: transitive only (the project's own packages, scope self, are neither)",
    }),
  ),
  search: Type.Optional(
    Type.String({ maxLength: 200, description: 'case-insensitive substring of the name' }),
  ),
  ...TakeSkipQuery,
});

export const DEFAULT_MAX_EDGES = 5000;
export const MAX_MAX_EDGES = 100_000;

const GraphQuery = Type.Object({
  maxEdges: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 2_147_483_647,
      description: `Cap on edges returned (default ${DEFAULT_MAX_EDGES}, clamped to ${MAX_MAX_EDGES}); past it the graph is truncated`,
    }),
  ),
});

const RepositoryParams = UuidParam('repositoryId');

export function repositoryRoutes(deps: {
  config: Config;
  database: Database;
  secretBox: SecretBox;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    repositoryCollectionRoutes(app, deps);
    repositoryListRoute(app);
    repositoryItemRoutes(app);
    repositoryChangeRoutes(app);
    repositoryReadOutRoutes(app);
    riskSummaryRoute(app);
  };
}

/** Importing repositories from a connection. */
function repositoryCollectionRoutes(
  app: RouteApp,
  deps: Parameters<typeof repositoryRoutes>[0],
): void {
  app.post(
    '/api/v1/repositories/import',
    {
      schema: {
        tags: ['Repositories'],
        operationId: 'importRepositories',
        summary: "Import repositories by a connection's provider ids or by clone URLs",
        description:
          'Per-item statuses in the result. 409 only when every item is already imported; 404 for an unknown connection; 409 for a connection that is not active; 400 for malformed input (errors keyed like repositories[0].url).',
        body: ImportRepositoriesRequest,
        response: withErrors({ 200: ImportRepositoriesResult }, [404, 409, 413, 415, 502, 503]),
      },
      config: {
        role: 'admin',
        audit: { action: 'repository.import', resourceType: 'repository' },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { items } = await importRepositories(
        requestScope(request, deps.database),
        {
          config: deps.config,
          secretBox: deps.secretBox,
          log: (message, details) => request.log.warn(details, message),
        },
        principal,
        request.body,
      );
      const imported = items.filter((i) => i.status === 'imported');
      request.auditDetails = {
        imported: imported.map((i) => i.repositoryId),
        statuses: items.map((i) => i.status),
      };
      if (imported.length === 1) request.auditResourceId = imported[0]?.repositoryId ?? null;
      return {
        items,
        imported: imported.length,
        alreadyImported: items.filter((i) => i.status === 'alreadyImported').length,
        failed: items.filter((i) => i.status !== 'imported' && i.status !== 'alreadyImported')
          .length,
      };
    },
  );
}

/** The tenant's repositories, filtered and paged. */
function repositoryListRoute(app: RouteApp): void {
  app.get(
    '/api/v1/repositories',
    {
      schema: {
        tags: ['Repositories'],
        summary: 'Repositories, by full name',
        querystring: RepositoryListQuery,
        response: withErrors({ 200: TotalEstimatePage(Repository) }),
      },
      config: { role: 'viewer', reads: 'replica' },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      const { rows, total } = await listRepositories(
        tenantDb(request),
        {
          workspaceId: query.workspaceId,
          teamId: query.teamId,
          businessCriticality: parseEnum(
            'businessCriticality',
            query.businessCriticality,
            BUSINESS_CRITICALITIES,
          ),
          lifecycleStatus: parseEnum('lifecycleStatus', query.lifecycleStatus, LIFECYCLE_STATUSES),
          search: query.search?.trim() || undefined,
        },
        page,
      );
      return { items: rows.map(presentRepository), totalEstimate: total, ...page };
    },
  );
}

/** One repository, its dependency count and its active scan. */
function repositoryItemRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/repositories/:repositoryId',
    {
      schema: {
        tags: ['Repositories'],
        summary: 'A repository, its dependency count and its active scan',
        params: RepositoryParams,
        response: withErrors({ 200: RepositoryDetail }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { repositoryId } = request.params;
      const db = tenantDb(request);
      const row = await findRepository(db, repositoryId);
      if (!row) throw notFound('The repository');
      const active = await findActiveScan(db, repositoryId);
      const counted = await db
        .selectFrom('repository_dependencies')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('repository_id', '=', repositoryId)
        // The project's own package (scope self) is stored but is no dependency.
        .where(sql.raw<boolean>(COUNTED_DEPENDENCY_SQL))
        .executeTakeFirstOrThrow();
      return {
        ...presentRepository(row),
        dependencyCount: Number(counted.n),
        activeScan: active
          ? {
              scanId: active.id,
              state: active.state,
              queuedAtUtc: active.queued_at.toISOString(),
            }
          : null,
      };
    },
  );
}

/** Changing a repository, and deleting it with its scans, dependencies and derived records. */
function repositoryChangeRoutes(app: RouteApp): void {
  app.patch(
    '/api/v1/repositories/:repositoryId',
    {
      schema: {
        tags: ['Repositories'],
        summary: 'Update name, default branch, workspace, team, criticality or lifecycle status',
        params: RepositoryParams,
        body: UpdateRepositoryRequest,
        response: withErrors({ 200: Repository }, [404, 413, 415, 422]),
      },
      config: {
        role: 'admin',
        validationStatus: 422,
        audit: { action: 'repository.update', resourceType: 'repository' },
      },
    },
    async (request) => {
      const { repositoryId } = request.params;
      const row = await updateRepository(tenantDb(request), repositoryId, request.body);
      request.auditDetails = { fields: Object.keys(request.body) };
      return presentRepository(row);
    },
  );

  app.delete(
    '/api/v1/repositories/:repositoryId',
    {
      schema: {
        tags: ['Repositories'],
        summary: 'Delete a repository with its scans, dependencies and derived records',
        params: RepositoryParams,
        response: withErrors({ 204: NoContent }, [404]),
      },
      config: {
        role: 'admin',
        audit: { action: 'repository.delete', resourceType: 'repository' },
      },
    },
    async (request, reply) => {
      const { repositoryId } = request.params;
      const removed = await removeRepository(tenantDb(request), {
        tenantId: principalOf(request).tenantId,
        repositoryId,
        correlationId: request.id,
      });
      if (!removed) throw notFound('The repository');
      return reply.code(204).send();
    },
  );
}

/** What a repository's last scan found: its dependencies and their graph. */
function repositoryReadOutRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/repositories/:repositoryId/dependencies',
    {
      schema: {
        tags: ['Repositories'],
        summary: "The repository's dependencies as its latest scan (or SBOM import) found them",
        params: RepositoryParams,
        querystring: DependencyListQuery,
        response: withErrors({ 200: TotalEstimatePage(RepositoryDependency) }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { repositoryId } = request.params;
      const db = tenantDb(request);
      if (!(await findRepository(db, repositoryId))) throw notFound('The repository');
      const query = request.query;
      const page = pageOf(query);
      const { rows, total } = await listDependencies(
        db,
        repositoryId,
        {
          ecosystem: parseEnum('ecosystem', query.ecosystem, ECOSYSTEMS),
          direct: query.direct,
          search: query.search?.trim() || undefined,
        },
        page,
      );
      return { items: rows.map(presentDependency), totalEstimate: total, ...page };
    },
  );

  app.get(
    '/api/v1/repositories/:repositoryId/dependency-graph',
    {
      schema: {
        tags: ['Repositories'],
        summary: 'Nodes and edges of the dependency graph, truncated past maxEdges',
        params: RepositoryParams,
        querystring: GraphQuery,
        response: withErrors({ 200: DependencyGraph }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { repositoryId } = request.params;
      const db = tenantDb(request);
      const repository = await findRepository(db, repositoryId);
      if (!repository) throw notFound('The repository');
      const maxEdges = Math.min(request.query.maxEdges ?? DEFAULT_MAX_EDGES, MAX_MAX_EDGES);
      const rows = await allDependencies(db, repositoryId);
      const graph = buildGraph(rows, maxEdges);
      return {
        repositoryId,
        scanId: rows[0]?.scan_id ?? null,
        maxEdges,
        ...graph,
      };
    },
  );
}

/** The repository's risk summary. */
function riskSummaryRoute(app: RouteApp): void {
  app.get(
    '/api/v1/repositories/:repositoryId/risk-summary',
    {
      schema: {
        tags: ['Repositories'],
        summary: 'Dependencies, open vulnerabilities by severity, drift, health and policy status',
        params: RepositoryParams,
        response: withErrors({ 200: RiskSummary }, [404]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { repositoryId } = request.params;
      const db = tenantDb(request);
      const repository = await findRepository(db, repositoryId);
      if (!repository) throw notFound('The repository');
      return {
        repositoryId,
        lastScanId: repository.last_scan_id,
        lastScannedAtUtc: repository.last_scanned_at?.toISOString() ?? null,
        ...(await riskSummary(db, repositoryId)),
      };
    },
  );
}
