import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { notFound } from '../../../core/problem';
import { pageOf } from '../../../http/query';
import type { RouteApp } from '../../../http/route-app';
import { UuidParam, withErrors } from '../../../http/schemas';
import { principalOf, tenantDb } from '../../../http/scope';
import { presentPack } from '../present';
import {
  GeneratePackRequest,
  PackListQuery,
  PackPage,
  PackStatus,
  ReportFormatQuery,
} from '../schemas';
import { findPackSummary, listPacks } from '../store';
import { packDocument, parseFormat, requestPack } from './service';

const TAG = 'CRA';

/** CRA report packs (docs/cra.md#report-packs). */
export const craReportRoutes: FastifyPluginAsyncTypebox = async (app) => {
  requestPackRoute(app);
  packRoutes(app);
};

function requestPackRoute(app: RouteApp): void {
  app.post(
    '/api/v1/cra/reports',
    {
      schema: {
        tags: [TAG],
        operationId: 'generateCraReportPack',
        summary:
          'Generate a report pack of a product (202): classification, conformity route, SBOM, findings, Annex I, duties, clocks',
        body: GeneratePackRequest,
        response: withErrors({ 202: PackStatus }, [404, 413, 415]),
      },
      config: {
        role: 'member',
        feature: 'cra',
        audit: { action: 'cra_report.generate', resourceType: 'cra_report_pack' },
      },
    },
    async (request, reply) => {
      const pack = await requestPack(
        tenantDb(request),
        principalOf(request),
        request.body.productId,
        request.id,
      );
      request.auditResourceId = pack.id;
      request.auditDetails = { productId: pack.product_id };
      return reply
        .code(202)
        .header('Location', `/api/v1/cra/reports/${pack.id}`)
        .send(presentPack(pack));
    },
  );
}

/** The tenant's packs, and one pack's status or document. */
function packRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/cra/reports',
    {
      schema: {
        tags: [TAG],
        summary: 'Report packs, newest first',
        querystring: PackListQuery,
        response: withErrors({ 200: PackPage }),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => {
      const page = pageOf(request.query);
      const { rows, total } = await listPacks(
        tenantDb(request),
        { productId: request.query.productId },
        page,
      );
      return { items: rows.map(presentPack), totalEstimate: total, ...page };
    },
  );

  app.get(
    '/api/v1/cra/reports/:packId',
    {
      schema: {
        tags: [TAG],
        operationId: 'getCraReportPack',
        summary:
          'A report pack: without format its status; with format=json|markdown|pdf|csv the document (409 until generated, 400 for another format)',
        params: UuidParam('packId'),
        querystring: ReportFormatQuery,
        response: withErrors(
          { 200: Type.Unknown({ description: 'The pack status, or the document asked for' }) },
          [404, 409],
        ),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request, reply) => {
      const db = tenantDb(request);
      const format = parseFormat(request.query.format);
      if (!format) {
        const pack = await findPackSummary(db, request.params.packId);
        if (!pack) throw notFound('The report pack');
        return presentPack(pack);
      }
      const document = await packDocument(db, request.params.packId, format);
      return reply
        .code(200)
        .type(document.contentType)
        .header('Content-Disposition', `attachment; filename="${document.filename}"`)
        .serializer((payload: unknown) => payload as string)
        .send(document.body);
    },
  );
}
