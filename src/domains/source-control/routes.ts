import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../../config';
import type { Database } from '../../db/connection';
import { requestScope } from '../../http/request-scope';
import type { RouteApp } from '../../http/route-app';
import { UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { SecretBox } from '../../security/secret-box';
import { createConnection } from './create-connection';
import {
  AvailableRepositoryList,
  Connection,
  ConnectionList,
  CreateConnectionBody,
  CreatedConnection,
  InstallBody,
} from './schemas';
import { availableRepositories, installScmA } from './service';
import { listConnections, type PublicConnection } from './store';

export function presentConnection(row: PublicConnection) {
  return {
    connectionId: row.id,
    provider: row.provider,
    name: row.name,
    baseUrl: row.base_url,
    externalId: row.external_id,
    accountName: row.account_name,
    status: row.status,
    statusReason: row.status_reason,
    webhookUrl: row.provider === 'git' ? null : `/api/v1/webhooks/${row.provider}`,
    hasWebhookSecret: row.has_webhook_secret,
    createdAtUtc: row.created_at.toISOString(),
    updatedAtUtc: row.updated_at.toISOString(),
  };
}

const AUDIT = { resourceType: 'source_control_connection' };

type SourceControlDeps = Parameters<typeof sourceControlRoutes>[0];

export function sourceControlRoutes(deps: {
  config: Config;
  database: Database;
  secretBox: SecretBox;
}): FastifyPluginAsyncTypebox {
  return async (app) => {
    connectionListRoute(app);
    connectRoutes(app, deps);
    availableRepositoriesRoute(app, deps);
  };
}

/** The tenant's connections, without secrets. */
function connectionListRoute(app: RouteApp): void {
  app.get(
    '/api/v1/source-control/connections',
    {
      schema: {
        tags: ['Source control'],
        summary: 'List source-control connections (never returns secrets)',
        response: withErrors({ 200: ConnectionList }),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const items = (await listConnections(tenantDb(request))).map(presentConnection);
      return { items, total: items.length };
    },
  );
}

/** Connecting a provider: an scm-a app installation, or a credential for the others. */
function connectRoutes(app: RouteApp, deps: SourceControlDeps): void {
  app.post(
    '/api/v1/source-control/connections/github/install',
    {
      schema: {
        tags: ['Source control'],
        operationId: 'installGithubConnection',
        summary: 'Connect an scm-a app installation (200 when already connected)',
        body: InstallBody,
        response: withErrors({ 200: Connection, 201: Connection }, [409, 413, 415, 502, 503]),
      },
      config: { role: 'admin', audit: { action: 'source_control_connection.install', ...AUDIT } },
    },
    async (request, reply) => {
      const result = await installScmA(
        requestScope(request, deps.database),
        deps.secretBox,
        deps.config,
        request.body,
      );
      request.auditResourceId = result.connection.id;
      request.auditDetails = {
        provider: 'scm-a',
        installationId: result.connection.external_id,
        created: result.created,
      };
      return reply.code(result.created ? 201 : 200).send(presentConnection(result.connection));
    },
  );

  app.post(
    '/api/v1/source-control/connections',
    {
      schema: {
        tags: ['Source control'],
        summary: 'Create an scm-b, scm-c, scm-d or generic git connection',
        description:
          'Not in the contract table; needed because only scm-a has an install flow. The ' +
          'credential is checked with the provider first (401 refused, 502, 503).',
        body: CreateConnectionBody,
        response: withErrors({ 201: CreatedConnection }, [409, 413, 415, 422, 502, 503]),
      },
      config: { role: 'admin', audit: { action: 'source_control_connection.create', ...AUDIT } },
    },
    async (request, reply) => {
      const created = await createConnection(
        requestScope(request, deps.database),
        deps.secretBox,
        deps.config,
        principalOf(request).tenantId,
        request.body,
      );
      request.auditResourceId = created.connection.id;
      request.auditDetails = { provider: created.connection.provider };
      return reply.code(201).send({
        ...presentConnection(created.connection),
        webhookSecret: created.webhookSecret,
      });
    },
  );
}

/** What a connection's credential can see, marked when already imported. */
function availableRepositoriesRoute(app: RouteApp, deps: SourceControlDeps): void {
  app.get(
    '/api/v1/source-control/connections/:connectionId/available-repositories',
    {
      schema: {
        tags: ['Source control'],
        summary: "Repositories the connection's credential can see, marked when imported",
        params: UuidParam('connectionId'),
        response: withErrors({ 200: AvailableRepositoryList }, [404, 409, 502, 503]),
      },
      config: { role: 'viewer' },
    },
    async (request) => {
      const { connectionId } = request.params;
      const repositories = await availableRepositories(
        requestScope(request, deps.database),
        deps.secretBox,
        deps.config,
        connectionId,
      );
      const items = repositories.map((repo) => ({
        externalId: repo.externalId,
        name: repo.name,
        fullName: repo.fullName,
        cloneUrl: repo.cloneUrl,
        webUrl: repo.webUrl,
        defaultBranch: repo.defaultBranch,
        private: repo.private,
        imported: repo.repositoryId !== null,
        repositoryId: repo.repositoryId,
      }));
      return { items, total: items.length };
    },
  );
}
