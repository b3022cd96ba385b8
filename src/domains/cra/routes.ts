import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { pageOf, parseEnum } from '../../http/query';
import type { RouteApp } from '../../http/route-app';
import { NoContent, withErrors } from '../../http/schemas';
import { principalOf, tenantDb } from '../../http/scope';
import { FINDING_STATES, listFindings } from './findings';
import {
  changeProduct,
  createProduct,
  loadProduct,
  presentProduct,
  removeProduct,
} from './products';
import { listProducts } from './products-store';
import {
  CreateProductRequest,
  FindingListQuery,
  FindingPage,
  Product,
  ProductIdParam,
  ProductListQuery,
  ProductPage,
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

/** The CRA module (docs/cra.md). */
export function craRoutes(): FastifyPluginAsyncTypebox {
  return async (app) => {
    productCollectionRoutes(app);
    productItemRoutes(app);
    findingRoutes(app);
  };
}
