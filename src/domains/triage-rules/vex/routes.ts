import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { badRequest } from '../../../core/problem';
import type { RouteApp } from '../../../http/route-app';
import { withErrors } from '../../../http/schemas';
import { principalOf, tenantDb } from '../../../http/scope';
import { VexExportQuery, VexImportQuery, VexImportSummary } from '../schemas';
import { VexImportBody } from './documents';
import { exportVex, VEX_FORMATS, VEX_MEDIA_TYPES } from './export';
import { importVex } from './import';

const TAG = 'Triage rules';
/** A VEX document of 5 000 statements is well under this; more is no VEX but an attack. */
export const VEX_IMPORT_MAX_BYTES = 4 * 1024 * 1024;

/** VEX in (as triage rules) and out (rules and exposure statuses); docs/triage.md#vex. */
export function vexRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    // This plugin's own JSON parser (encapsulated): the VEX media types too, and text that is no
    // JSON answered as a field error of the body.
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      ['application/json', 'application/openvex+json', 'application/vnd.cyclonedx+json'],
      { parseAs: 'string' },
      (request, body, done) =>
        parseJson(request, body as string, (error, value) => {
          if (!error) return done(null, value);
          done(badRequest('The body is not a JSON document.', { body: [error.message] }));
        }),
    );
    vexImportRoute(app);
    vexExportRoute(app);
  };
}

function vexImportRoute(app: RouteApp): void {
  app.post(
    '/api/v1/triage-rules/vex/import',
    {
      bodyLimit: VEX_IMPORT_MAX_BYTES,
      schema: {
        tags: [TAG],
        operationId: 'importTriageRulesVex',
        summary:
          'Import an OpenVEX or CycloneDX VEX document as triage rules (per statement: created, updated, unchanged or skipped with the reason)',
        querystring: VexImportQuery,
        body: VexImportBody,
        response: withErrors({ 200: VexImportSummary }, [413, 415, 422]),
      },
      config: {
        role: 'member',
        audit: { action: 'triage_rule.vex_import', resourceType: 'triage_rule' },
      },
    },
    async (request) => {
      const expiry = request.query.acceptedRiskExpiresAtUtc;
      const summary = await importVex(tenantDb(request), principalOf(request), request.body, {
        acceptedRiskExpiresAt: expiry ? new Date(expiry) : null,
      });
      request.auditDetails = {
        format: summary.format,
        statements: summary.statements,
        created: summary.created,
        updated: summary.updated,
        unchanged: summary.unchanged,
        skipped: summary.skipped,
      };
      return summary;
    },
  );
}

function vexExportRoute(app: RouteApp): void {
  app.get(
    '/api/v1/triage-rules/vex/export',
    {
      schema: {
        tags: [TAG],
        operationId: 'exportTriageRulesVex',
        summary:
          "The tenant's live rules and the exposure statuses people set, as an OpenVEX 0.2.0 or CycloneDX 1.6 VEX document",
        querystring: VexExportQuery,
        produces: Object.values(VEX_MEDIA_TYPES),
        response: withErrors(
          { 200: Type.Unknown({ description: 'The OpenVEX or CycloneDX JSON document' }) },
          [404],
        ),
      },
      config: { role: 'viewer' },
    },
    async (request, reply) => {
      const wanted = (request.query.format ?? 'openvex').trim().toLowerCase();
      const format = VEX_FORMATS.find((known) => known === wanted);
      if (!format) {
        throw badRequest('Unsupported VEX format.', {
          format: [`must be one of ${VEX_FORMATS.join(', ')}`],
        });
      }
      const document = await exportVex(tenantDb(request), principalOf(request).tenantId, {
        format,
        repositoryId: request.query.repositoryId ?? null,
        now: new Date(),
      });
      return reply
        .code(200)
        .type(VEX_MEDIA_TYPES[format])
        .serializer((payload: unknown) => payload as string)
        .send(JSON.stringify(document));
    },
  );
}
