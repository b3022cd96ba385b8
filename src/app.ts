import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Config } from './config';
import { ProblemSchema } from './core/problem';
import type { Database } from './db/connection';
import { newId } from './db/ids';
import { aiRoutes } from './domains/ai/routes';
import { alertRoutes } from './domains/alerts/routes';
import { analyticsRoutes } from './domains/analytics/routes';
import { analyticsExportRoutes } from './domains/analytics-export/routes';
import { apiTokenRoutes } from './domains/api-tokens/routes';
import type { TokenUsageTracker } from './domains/api-tokens/usage-tracker';
import { auditLogRoutes } from './domains/audit-log/routes';
import { insertAuditEntry, outcomeFor } from './domains/audit-log/store';
import { billingRoutes } from './domains/billing/routes';
import { complianceRoutes } from './domains/compliance/routes';
import { craRoutes } from './domains/cra/routes';
import { craReportingRoutes } from './domains/cra-reporting/routes';
import { driftRoutes } from './domains/drift/routes';
import { exposureRoutes } from './domains/exposures/routes';
import { ideVerdictRoutes } from './domains/ide-verdicts/routes';
import { integrationRoutes } from './domains/integrations/routes';
import { onboardingRoutes } from './domains/onboarding/routes';
import { packageRoutes } from './domains/packages/routes';
import { policyRoutes } from './domains/policies/routes';
import { quantumRoutes } from './domains/quantum/routes';
import { repositoryRoutes } from './domains/repositories/routes';
import type { DomainRoutes, RouteDeps } from './domains/route-deps';
import { sbomRoutes } from './domains/sbom/routes';
import { scanRoutes } from './domains/scans/routes';
import { sourceControlRoutes } from './domains/source-control/routes';
import {
  createResponseWindow,
  type ResponseWindow,
} from './domains/status/measurement/response-window';
import { statusRoutes } from './domains/status/routes';
import type { BuildInfo, CliVersionInfo } from './domains/system/build-info';
import type { ServiceState } from './domains/system/readiness';
import { systemRoutes } from './domains/system/routes';
import { tenantSettingsRoutes } from './domains/tenant-settings/routes';
import { tenantRoutes } from './domains/tenants/routes';
import { triageRuleRoutes } from './domains/triage-rules/routes';
import { vulnerabilityRoutes } from './domains/vulnerabilities/routes';
import { webhookRoutes } from './domains/webhooks/routes';
import { registerEdgeRules } from './http/edge-rules';
import { registerErrorHandling } from './http/error-handler';
import {
  clientErrorHandler,
  frameworkErrors,
  MAX_PARAM_LENGTH,
  registerNotFound,
} from './http/framework-errors';
import { openApiDocument, registerOperationDefaults } from './http/openapi';
import { registerPipeline } from './http/pipeline';
import { RATE_LIMIT_HEADERS, type RateLimitStore } from './http/rate-limit';
import { OneLinePerRequest } from './http/request-log';
import { trackRoutes } from './http/route-table';
import { lazySerializers } from './http/serializers';
import { createValidatorCompiler } from './http/validators';
import { webApp } from './http/web-app';
import { createServiceLogger, type ServiceLogger } from './logger';
import type { Metrics } from './observability/metrics';
import { operatorTokenCheck } from './security/operator-token';
import type { SecretBox } from './security/secret-box';

export interface AppDeps {
  config: Config;
  database: Database;
  secretBox: SecretBox;
  rateLimits: RateLimitStore;
  tokenUsage: TokenUsageTracker;
  buildInfo: BuildInfo;
  cliVersion: CliVersionInfo;
  /** Absent: no request metrics and no /metrics route (docs/operations.md#metrics). */
  metrics?: Metrics;
  /** Readiness inputs of the running service; absent: no workers, never stopping. */
  state?: ServiceState;
  /** The process's logger; absent: JSON lines at the configured level. */
  logger?: ServiceLogger;
  /** The API's recent answers (the status page's API component); absent: a new one. */
  responseWindow?: ResponseWindow;
  /** The built web app (dist/web); absent: / answers 503 naming `npm run build`. */
  webAppDir?: string | null;
}

const CORRELATION_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Builds the HTTP application from its dependencies; tests build it with their own. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = createServer(deps);

  // JSON only: without the text/plain parser such bodies are a 415.
  app.removeContentTypeParser('text/plain');
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Correlation-Id', request.id);
  });

  const routes = trackRoutes(app);
  const responseWindow = deps.responseWindow ?? createResponseWindow();
  app.addHook('onResponse', async (_request, reply) => {
    responseWindow.record(reply.statusCode, Date.now());
  });
  const metrics = deps.metrics;
  if (metrics) {
    // The route pattern, never the raw URL: label values stay bounded (unmatched: no route).
    app.addHook('onResponse', async (request, reply) => {
      metrics.observeRequest({
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status: reply.statusCode,
        seconds: reply.elapsedTime / 1000,
      });
    });
  }

  // The reference page is public.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) route.config = { ...route.config, auth: false };
  });
  registerOperationDefaults(app);
  app.addSchema(ProblemSchema);
  registerErrorHandling(app);
  const web = webApp(deps.webAppDir ?? null);
  registerNotFound(app, web.fallback);
  await app.register(cors, {
    origin: true,
    exposedHeaders: ['X-Correlation-Id', ...RATE_LIMIT_HEADERS],
  });
  await app.register(swagger, {
    openapi: openApiDocument(deps.buildInfo.version),
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs', uiConfig: { docExpansion: 'list' } });

  registerPipeline(app, {
    database: deps.database,
    rateLimits: deps.rateLimits,
    limits: deps.config.rateLimits,
    tokenUsage: deps.tokenUsage,
    audit: {
      write: (db, call) => insertAuditEntry(db, { ...call, outcome: outcomeFor(call.statusCode) }),
    },
    onRateLimited: metrics?.rateLimited,
  });

  registerEdgeRules(app);

  await registerDomainRoutes(app, { ...deps, responseWindow }, routes);
  web.register(app);

  app.get('/api/v1/openapi.json', { schema: { hide: true }, config: { auth: false } }, async () =>
    app.swagger(),
  );
  return app;
}

/** The Fastify instance: logging, limits, correlation ids and the framework's own refusals. */
function createServer(deps: AppDeps) {
  // The service's own logger (readable in a terminal, JSON otherwise); tests get JSON.
  const logger: FastifyBaseLogger =
    deps.logger ?? createServiceLogger({ ...deps.config, logFormat: 'json' });
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: deps.config.bodyLimitBytes,
    trustProxy: deps.config.trustProxy,
    requestIdHeader: false,
    // While the server drains (docs/operations.md) a request arriving on an open keep-alive
    // connection is served, with Connection: close, instead of Fastify's bare 503, which is no
    // problem document. The drain is bounded; new connections are refused by then.
    return503OnClosing: false,
    genReqId: (request) => {
      const given = request.headers['x-correlation-id'];
      return typeof given === 'string' && CORRELATION_ID.test(given) ? given : newId();
    },
    logController: new OneLinePerRequest(),
    // The framework's own refusals are problem documents too (docs/http-rules.md).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
    schemaController: { compilersFactory: { buildSerializer: lazySerializers() } },
  }).withTypeProvider<TypeBoxTypeProvider>();
  app.setValidatorCompiler(createValidatorCompiler());
  return app;
}

type App = ReturnType<typeof createServer>;

/**
 * Every domain's routes: one plugin per domain, each of one shape (DomainRoutes), all given the
 * same RouteDeps and reading what they need. Order is registration order (the index lists GETs).
 */
const DOMAIN_ROUTES: readonly DomainRoutes[] = [
  systemRoutes,
  tenantRoutes,
  apiTokenRoutes,
  auditLogRoutes,
  vulnerabilityRoutes,
  exposureRoutes,
  triageRuleRoutes,
  sourceControlRoutes,
  repositoryRoutes,
  scanRoutes,
  webhookRoutes,
  billingRoutes,
  sbomRoutes,
  packageRoutes,
  driftRoutes,
  tenantSettingsRoutes,
  policyRoutes,
  integrationRoutes,
  alertRoutes,
  onboardingRoutes,
  ideVerdictRoutes,
  analyticsRoutes,
  craRoutes,
  analyticsExportRoutes,
  craReportingRoutes,
  statusRoutes,
  quantumRoutes,
  complianceRoutes,
  aiRoutes,
];

async function registerDomainRoutes(
  app: App,
  deps: AppDeps & { responseWindow: ResponseWindow },
  routes: ReturnType<typeof trackRoutes>,
): Promise<void> {
  const routeDeps: RouteDeps = {
    config: deps.config,
    database: deps.database,
    secretBox: deps.secretBox,
    tokenUsage: deps.tokenUsage,
    buildInfo: deps.buildInfo,
    cliVersion: deps.cliVersion,
    ...(deps.state ? { state: deps.state } : {}),
    routes,
    metrics: deps.metrics ?? null,
    operatorCheck: deps.config.operatorToken ? operatorTokenCheck(deps.config.operatorToken) : null,
    responseWindow: deps.responseWindow,
  };
  for (const domainRoutes of DOMAIN_ROUTES) await app.register(domainRoutes(routeDeps));
}
