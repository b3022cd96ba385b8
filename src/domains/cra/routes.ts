import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageOf, parseEnum } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { NoContent, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import { annexIStatus, listDuties, recordAssessment } from './annex-i/assessments';
import { FINDING_STATES, listFindings } from './findings/findings';
import {
  changeProduct,
  createProduct,
  loadProduct,
  presentProduct,
  removeProduct,
} from './products/products';
import { listProducts } from './products/store';
import {
  AssessedItemList,
  AssessedItemSchema,
  AssessmentListQuery,
  AssessmentRequest,
  CreateProductRequest,
  DutyIdParam,
  FindingListQuery,
  FindingPage,
  Product,
  ProductIdParam,
  ProductListQuery,
  ProductPage,
  RequirementIdParam,
  UpdateProductRequest,
} from './schemas';
import { CRA_CLASSIFICATIONS } from './tables';

export const CRA_TAG = 'CRA';

function productCollectionRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/cra/products',
    {
      schema: {
        tags: [CRA_TAG],
        summary: "The tenant's CRA products (newest first)",
        querystring: ProductListQuery,
        response: withErrors({ 200: ProductPage }),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => {
      const page = pageOf(request.query);
      const classification = parseEnum('class', request.query.class, CRA_CLASSIFICATIONS);
      const { rows, total } = await listProducts(tenantDb(request), { classification }, page);
      return { items: rows.map(presentProduct), totalEstimate: total, ...page };
    },
  );

  app.post(
    '/api/v1/cra/products',
    {
      schema: {
        tags: [CRA_TAG],
        summary: 'Create a CRA product: class and category, support period, contact, repositories',
        body: CreateProductRequest,
        response: withErrors({ 201: Product }, [413, 415]),
      },
      config: {
        role: 'admin',
        feature: 'cra',
        audit: { action: 'cra_product.create', resourceType: 'cra_product' },
      },
    },
    async (request, reply) => {
      const product = await createProduct(
        tenantDb(request),
        principalOf(request).tenantId,
        request.body,
      );
      request.auditResourceId = product.productId;
      return reply.code(201).send(product);
    },
  );
}

function productItemRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/cra/products/:productId',
    {
      schema: {
        tags: [CRA_TAG],
        summary: 'One CRA product with its conformity route',
        params: ProductIdParam,
        response: withErrors({ 200: Product }, [404]),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => loadProduct(tenantDb(request), request.params.productId),
  );

  app.patch(
    '/api/v1/cra/products/:productId',
    {
      schema: {
        tags: [CRA_TAG],
        summary: 'Change a CRA product (fields given replace the stored ones)',
        params: ProductIdParam,
        body: UpdateProductRequest,
        response: withErrors({ 200: Product }, [404, 413, 415]),
      },
      config: {
        role: 'admin',
        feature: 'cra',
        audit: { action: 'cra_product.update', resourceType: 'cra_product' },
      },
    },
    async (request) =>
      changeProduct(
        tenantDb(request),
        principalOf(request).tenantId,
        request.params.productId,
        request.body,
      ),
  );

  app.delete(
    '/api/v1/cra/products/:productId',
    {
      schema: {
        tags: [CRA_TAG],
        summary: 'Delete a CRA product (its assessments and exploitation records go with it)',
        params: ProductIdParam,
        response: withErrors({ 204: NoContent }, [404]),
      },
      config: {
        role: 'admin',
        feature: 'cra',
        audit: { action: 'cra_product.delete', resourceType: 'cra_product' },
      },
    },
    async (request, reply) => {
      await removeProduct(tenantDb(request), request.params.productId);
      return reply.code(204).send();
    },
  );
}

function findingRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/cra/findings',
    {
      schema: {
        tags: [CRA_TAG],
        summary:
          "Findings of the tenant's products: exposures and policy violations of their repositories, with the CRA state, active exploitation and fix availability (newest first)",
        querystring: FindingListQuery,
        response: withErrors({ 200: FindingPage }),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => {
      const query = request.query;
      const page = pageOf(query);
      const { items, total } = await listFindings(
        tenantDb(request),
        {
          productId: query.productId,
          classification: parseEnum('class', query.class, CRA_CLASSIFICATIONS),
          state: parseEnum('state', query.state, FINDING_STATES),
        },
        page,
      );
      return { items, totalEstimate: total, ...page };
    },
  );
}

function assessmentRoutes(app: RouteApp): void {
  app.get(
    '/api/v1/cra/duties',
    {
      schema: {
        tags: [CRA_TAG],
        summary:
          'The Article 13 duties of a product (or of every product), each with a state and the evidence held',
        querystring: AssessmentListQuery,
        response: withErrors({ 200: AssessedItemList }, [404]),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => ({ items: await listDuties(tenantDb(request), request.query.productId) }),
  );
  app.get(
    '/api/v1/cra/annex-i',
    {
      schema: {
        tags: [CRA_TAG],
        summary:
          'The Annex I Part I and Part II requirements of a product (or of every product), each with a status and its evidence',
        querystring: AssessmentListQuery,
        response: withErrors({ 200: AssessedItemList }, [404]),
      },
      config: { role: 'viewer', feature: 'cra' },
    },
    async (request) => ({ items: await annexIStatus(tenantDb(request), request.query.productId) }),
  );
}

/** Setting, with a note, what the data cannot show: an Annex I requirement, an Article 13 duty. */
function assessmentChangeRoutes(app: RouteApp): void {
  app.patch(
    '/api/v1/cra/annex-i/:requirementId',
    {
      schema: {
        tags: [CRA_TAG],
        summary:
          'Set the status of an Annex I requirement the data cannot show (a note is required)',
        params: RequirementIdParam,
        body: AssessmentRequest,
        response: withErrors({ 200: AssessedItemSchema }, [404, 413, 415, 422]),
      },
      config: {
        role: 'admin',
        feature: 'cra',
        audit: { action: 'cra_annex_i.assess', resourceType: 'cra_product' },
      },
    },
    async (request) => {
      request.auditResourceId = request.body.productId;
      request.auditDetails = {
        item: request.params.requirementId,
        status: request.body.status,
        note: request.body.note,
      };
      return recordAssessment(
        tenantDb(request),
        principalOf(request),
        'annex_i',
        request.params.requirementId,
        request.body,
      );
    },
  );
  app.patch(
    '/api/v1/cra/duties/:dutyId',
    {
      schema: {
        tags: [CRA_TAG],
        summary: 'Set the state of an Article 13 duty the data cannot show (a note is required)',
        params: DutyIdParam,
        body: AssessmentRequest,
        response: withErrors({ 200: AssessedItemSchema }, [404, 413, 415, 422]),
      },
      config: {
        role: 'admin',
        feature: 'cra',
        audit: { action: 'cra_duty.assess', resourceType: 'cra_product' },
      },
    },
    async (request) => {
      request.auditResourceId = request.body.productId;
      request.auditDetails = {
        item: request.params.dutyId,
        status: request.body.status,
        note: request.body.note,
      };
      return recordAssessment(
        tenantDb(request),
        principalOf(request),
        'duty',
        request.params.dutyId,
        request.body,
      );
    },
  );
}

/** The CRA module (docs/cra.md). */
export function craRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    productCollectionRoutes(app);
    productItemRoutes(app);
    findingRoutes(app);
    assessmentRoutes(app);
    assessmentChangeRoutes(app);
  };
}
