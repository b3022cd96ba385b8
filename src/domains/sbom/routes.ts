import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { iso } from '../../core/iso-time';
import { badRequest, conflict, notFound } from '../../core/problem';
import { pageOf, TakeOnlyQuery } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { UuidParam, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import type { RouteDeps } from '../route-deps';
import {
  CreateSbomExportBody,
  SBOM_EXPORT_FORMATS,
  SbomExport,
  SbomExportList,
  SbomImportAccepted,
  SbomImportBody,
} from './schemas';
import { acceptSbomImport, findSbomExport, requestSbomExport } from './service';
import {
  findRepository,
  findSbomExportDocument,
  listSbomExports,
  type SbomExportState,
} from './store';
import type { SbomExportFormat } from './tables';

function presentExport(row: SbomExportState) {
  return {
    exportId: row.id,
    repositoryId: row.repository_id,
    format: row.format,
    state: row.state,
    scanId: row.scan_id,
    componentCount: row.component_count,
    sizeBytes: row.document_bytes,
    sha256: row.document_sha256,
    error: row.error,
    createdAtUtc: row.created_at.toISOString(),
    startedAtUtc: iso(row.started_at),
    finishedAtUtc: iso(row.finished_at),
    downloadUrl: row.state === 'completed' ? `/api/v1/sbom-exports/${row.id}/download` : null,
  };
}

const MEDIA_TYPES: Record<SbomExportFormat, string> = {
  'cyclonedx-1.6': 'application/vnd.cyclonedx+json; version=1.6',
  'spdx-2.3': 'application/spdx+json',
};
const EXTENSIONS: Record<SbomExportFormat, string> = {
  'cyclonedx-1.6': 'cdx.json',
  'spdx-2.3': 'spdx.json',
};

/** The raw text of each parsed body, for the import's hash and size (never kept longer). */
const rawBodies = new WeakMap<FastifyRequest, string>();

export function sbomRoutes({ config }: Pick<RouteDeps, 'config'>): FastifyPluginAsyncTypebox {
  const deps = config.sbom;
  return async (app) => {
    // This plugin's own JSON parser (encapsulated: other routes keep the default): the same
    // parsing, plus the SBOM media types, plus the raw text for the import record.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      ['application/json', 'application/vnd.cyclonedx+json', 'application/spdx+json'],
      { parseAs: 'string' },
      (request, body, done) => {
        rawBodies.set(request, body as string);
        parseJson(request, body as string, done);
      },
    );

    sbomImportRoute(app, deps);
    sbomExportRequestRoutes(app);
    sbomExportRoutes(app);
  };
}

/** POST an SBOM of a repository: stored and imported by a job. */
function sbomImportRoute(app: RouteApp, deps: RouteDeps['config']['sbom']): void {
  app.post(
    '/api/v1/repositories/:repositoryId/sbom/import',
    {
      bodyLimit: deps.importMaxBytes,
      schema: {
        tags: ['SBOM'],
        operationId: 'importRepositorySbom',
        summary: 'Import a CycloneDX or SPDX JSON SBOM as the repository dependencies (202)',
        params: UuidParam('repositoryId'),
        body: SbomImportBody,
        response: withErrors({ 202: SbomImportAccepted }, [404, 409, 413, 415, 422]),
      },
      config: {
        role: 'member',
        audit: { action: 'sbom.import', resourceType: 'sbom_import' },
      },
    },
    async (request, reply) => {
      const { repositoryId } = request.params;
      const principal = principalOf(request);
      const accepted = await acceptSbomImport(tenantDb(request), {
        tenantId: principal.tenantId,
        repositoryId,
        document: request.body,
        rawBody: rawBodies.get(request) ?? JSON.stringify(request.body),
        maxComponents: deps.maxComponents,
        correlationId: request.id,
      });
      request.auditResourceId = accepted.importId;
      request.auditDetails = {
        repositoryId,
        scanId: accepted.scan.id,
        format: accepted.graph.format,
        specVersion: accepted.graph.specVersion,
        components: accepted.graph.nodes.length,
      };
      return reply.code(202).send({
        importId: accepted.importId,
        scanId: accepted.scan.id,
        repositoryId,
        state: accepted.scan.state,
        trigger: 'sbom' as const,
        format: accepted.graph.format === 'cyclonedx' ? 'CycloneDX' : 'SPDX',
        specVersion: accepted.graph.specVersion,
        tool: accepted.graph.tool,
        componentCount: accepted.graph.nodes.length,
        queuedAtUtc: accepted.scan.queued_at.toISOString(),
      });
    },
  );
}

/** Requesting an SBOM export of a repository, and the repository's exports. */
function sbomExportRequestRoutes(app: RouteApp): void {
  app.post(
    '/api/v1/repositories/:repositoryId/sbom/exports',
    {
      schema: {
        tags: ['SBOM'],
        summary: 'Export the repository dependencies as CycloneDX 1.6 or SPDX 2.3 JSON (202)',
        params: UuidParam('repositoryId'),
        body: CreateSbomExportBody,
        response: withErrors({ 202: SbomExport }, [404, 413, 415]),
      },
      config: {
        role: 'member',
        feature: 'sbom_export',
        audit: { action: 'sbom.export', resourceType: 'sbom_export' },
      },
    },
    async (request, reply) => {
      const { repositoryId } = request.params;
      const wanted = request.body.format.trim().toLowerCase();
      const format = SBOM_EXPORT_FORMATS.find((known) => known === wanted);
      if (!format) {
        throw badRequest('Unsupported export format.', {
          format: [`must be one of ${SBOM_EXPORT_FORMATS.join(', ')}`],
        });
      }
      const row = await requestSbomExport(tenantDb(request), {
        tenantId: principalOf(request).tenantId,
        repositoryId,
        format,
        correlationId: request.id,
      });
      request.auditResourceId = row.id;
      request.auditDetails = { repositoryId, format };
      return reply.code(202).send(presentExport(row));
    },
  );

  app.get(
    '/api/v1/repositories/:repositoryId/sbom/exports',
    {
      schema: {
        tags: ['SBOM'],
        summary: 'Recent SBOM exports of a repository, newest first',
        params: UuidParam('repositoryId'),
        querystring: Type.Object(TakeOnlyQuery),
        response: withErrors({ 200: SbomExportList }, [404]),
      },
      config: { role: 'viewer', feature: 'sbom_export' },
    },
    async (request) => {
      const { repositoryId } = request.params;
      const db = tenantDb(request);
      if (!(await findRepository(db, repositoryId))) throw notFound('The repository');
      const { take } = pageOf(request.query);
      const rows = await listSbomExports(db, repositoryId, take);
      return { items: rows.map(presentExport) };
    },
  );
}

/** One export: its state, and its document once ready. */
function sbomExportRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/sbom-exports/:exportId',
    {
      schema: {
        tags: ['SBOM'],
        summary: 'State of an SBOM export',
        params: UuidParam('exportId'),
        response: withErrors({ 200: SbomExport }, [404]),
      },
      config: { role: 'viewer', feature: 'sbom_export' },
    },
    async (request) => {
      const { exportId } = request.params;
      const row = await findSbomExport(tenantDb(request), exportId);
      if (!row) throw notFound('The SBOM export');
      return presentExport(row);
    },
  );

  app.get(
    '/api/v1/sbom-exports/:exportId/download',
    {
      schema: {
        tags: ['SBOM'],
        operationId: 'downloadSbomExport',
        summary: 'The generated SBOM document (409 until the export is completed)',
        params: UuidParam('exportId'),
        response: withErrors(
          {
            200: Type.Unknown({
              description: 'The CycloneDX or SPDX JSON document',
            }),
          },
          [404, 409],
        ),
      },
      config: { role: 'viewer', feature: 'sbom_export' },
    },
    async (request, reply) => {
      const { exportId } = request.params;
      const row = await findSbomExportDocument(tenantDb(request), exportId);
      if (!row) throw notFound('The SBOM export');
      if (row.state !== 'completed' || row.document === null) {
        throw conflict(
          row.state === 'failed'
            ? 'The export failed; request a new one.'
            : `The export is ${row.state}; download it once it is completed.`,
        );
      }
      const name = `sbom-${row.repository_id}-${row.id}.${EXTENSIONS[row.format]}`;
      return (
        reply
          .code(200)
          .type(MEDIA_TYPES[row.format])
          .header('Content-Disposition', `attachment; filename="${name}"`)
          .header('ETag', `"${row.document_sha256}"`)
          // A string: the document is sent byte for byte as stored, never re-serialised.
          .serializer((payload: unknown) => payload as string)
          .send(row.document)
      );
    },
  );
}
