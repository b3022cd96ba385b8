import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifyInstance, RouteOptions } from 'fastify';

/**
 * What the OpenAPI document says about itself and its operations, for the people who generate
 * clients from it (docs/http-api.md): one tag per domain, a stable operationId per operation,
 * servers and the licence.
 */

/** The tags, one per domain, in the order the reference page shows them. */
export const OPENAPI_TAGS = [
  { name: 'System', description: 'Liveness, build and CLI versions (public)' },
  { name: 'Tenant', description: "The caller's tenant: demo sign-up, plan features, settings" },
  { name: 'API tokens', description: "Bearer tokens of the caller's tenant" },
  { name: 'Audit log', description: 'Every state-changing call, and its export' },
  { name: 'Source control', description: 'Connections to source-control providers' },
  { name: 'Repositories', description: 'Imported repositories, their dependencies and drift' },
  { name: 'Scans', description: 'Scans of repositories and their logs' },
  { name: 'SBOM', description: 'CycloneDX and SPDX import and export' },
  { name: 'Packages', description: 'The package catalogue as the tenant sees it' },
  { name: 'Vulnerabilities', description: 'Known vulnerabilities and the packages they affect' },
  { name: 'Vulnerability exposures', description: "Where a vulnerability meets a tenant's code" },
  {
    name: 'Triage rules',
    description: 'Triage decisions that carry across versions and exposures, and VEX in and out',
  },
  { name: 'Webhooks', description: 'Push deliveries from source-control providers' },
  {
    name: 'Policies',
    description: 'Policies in CEL, the violations they find, exceptions and dry runs',
  },
  { name: 'Integrations', description: 'Outbound webhook integrations and their delivery log' },
  { name: 'Alerts', description: 'Alert rules and the alerts they raise from domain events' },
  { name: 'Onboarding', description: "The tenant's onboarding steps, done or skipped" },
  { name: 'Analytics', description: 'Dashboards and trends served from rollups' },
  { name: 'Status', description: 'The public status surface: components, incidents, changelog' },
  {
    name: 'CRA',
    description:
      'EU Cyber Resilience Act: products, findings, duties, Annex I, clocks, report packs',
  },
  {
    name: 'Quantum',
    description:
      'Post-quantum readiness: the cryptography inventory, watched TLS endpoints and their observations',
  },
  {
    name: 'Billing',
    description:
      "The billing provider's signed events, the tenant's subscription, plan changes and invoices",
  },
  {
    name: 'Compliance',
    description:
      'Compliance control evidence for auditors (SOC 2, ISO/IEC 27001:2022, CRA Annex I Part II) and signed evidence archives',
  },
  {
    name: 'Questions',
    description: "Questions in plain language over the tenant's data, answered with citations",
  },
] as const;

export type OpenApiTag = (typeof OPENAPI_TAGS)[number]['name'];

const VERB_BY_METHOD: Record<string, string> = {
  POST: 'create',
  PUT: 'replace',
  PATCH: 'update',
  DELETE: 'delete',
};

const pascal = (words: string) =>
  words
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('');

/** The item of a collection: `repositories` → `repository`; `status`, `progress` stay. */
const singular = (word: string) => {
  if (!/[^su]s$/.test(word) || word.endsWith('is')) return word;
  return word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.slice(0, -1);
};

/** A path parameter, or `current` (the caller's own tenant), names one item of a collection. */
const isItem = (segment: string | undefined) =>
  segment !== undefined &&
  (segment.startsWith(':') || segment.startsWith('{') || segment === 'current');

/** A page or list answers with an `items` array. */
function answersWithItems(schema: Record<string, unknown>): boolean {
  const ok = (schema.response as Record<string, { properties?: Record<string, unknown> }>)?.[200];
  const items = ok?.properties?.items as { type?: unknown } | undefined;
  return items?.type === 'array';
}

/**
 * The operationId rule (docs/http-api.md): verb + the path's nouns in PascalCase, after
 * `/api/v1/`. A collection followed by an item is singular (`repositories/{id}` → Repository).
 * GET is `list` when the 200 response has an `items` array and `get` otherwise; POST creates one
 * item of the collection the path ends in; PATCH updates, PUT replaces, DELETE deletes. Actions
 * (`.../scan`, `.../cancel`, `.../import`) name themselves with an explicit `operationId`.
 */
export function deriveOperationId(method: string, url: string, lists: boolean): string {
  const segments = url
    .replace(/^\/api\/v1\//, '')
    .split('/')
    .filter(Boolean);
  const nouns = segments.flatMap((segment, index) => {
    if (isItem(segment)) return [];
    const itemFollows = isItem(segments[index + 1]);
    const createsOne = method === 'POST' && index === segments.length - 1;
    return [pascal(itemFollows || createsOne ? singular(segment) : segment)];
  });
  const verb = method === 'GET' ? (lists ? 'list' : 'get') : VERB_BY_METHOD[method];
  if (!verb) throw new Error(`no operationId rule for ${method} ${url}`);
  return `${verb}${nouns.join('')}`;
}

/**
 * Fills in each documented route's operationId by the rule unless the route names its own, and
 * marks public routes (`config.auth: false`) as needing no bearer token.
 */
export function registerOperationDefaults(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = route.schema as (Record<string, unknown> & { hide?: boolean }) | undefined;
    const method = Array.isArray(route.method) ? route.method[0] : route.method;
    if (!schema || schema.hide || method === 'HEAD' || !route.url.startsWith('/api/')) return;
    schema.operationId ??= deriveOperationId(String(method), route.url, answersWithItems(schema));
    const config = route.config as { auth?: boolean } | undefined;
    if (config?.auth === false) schema.security ??= [];
  });
}

/** The `openapi` part of the @fastify/swagger options. */
export function openApiDocument(version: string): FastifyDynamicSwaggerOptions['openapi'] {
  return {
    openapi: '3.1.0',
    info: {
      title: 'Driftwatch API',
      version,
      description: 'Dependency drift and open-source supply-chain intelligence.',
      // package.json says UNLICENSED: no licence is granted, and there is no SPDX identifier for
      // that (LicenseRef-* would need a licence text to point at), so only the required name.
      license: { name: 'UNLICENSED (proprietary; all rights reserved)' },
    },
    // Relative: every deployment serves its own API, and clients resolve it against the
    // address they fetched this document from (a generated client takes its base URL).
    servers: [{ url: '/', description: 'The Driftwatch server that serves this document' }],
    tags: OPENAPI_TAGS.map((tag) => ({ ...tag })),
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
    },
    security: [{ bearer: [] }],
  };
}
