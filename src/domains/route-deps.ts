import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Config } from '../config';
import type { Database } from '../db/connection';
import type { RouteTable } from '../http/route-table';
import type { OperatorCheck } from '../security/operator-token';
import type { SecretBox } from '../security/secret-box';
import type { TokenUsageTracker } from './api-tokens/usage-tracker';
import type { ResponseWindow } from './status/measurement/response-window';
import type { BuildInfo, CliVersionInfo } from './system/build-info';
import type { ServiceState } from './system/readiness';

/**
 * What every domain's route plugin gets: the same dependencies for all, built once by the
 * composition root (src/app.ts); each plugin reads what it needs. Like job-deps.ts for jobs.
 */
export interface RouteDeps {
  config: Config;
  database: Database;
  secretBox: SecretBox;
  tokenUsage: TokenUsageTracker;
  buildInfo: BuildInfo;
  cliVersion: CliVersionInfo;
  /** Readiness inputs of the running service; absent: an app built alone. */
  state?: ServiceState;
  /** The routes registered so far (complete once the app is ready). */
  routes: RouteTable;
  /** GET /metrics on the API port, for the operator token; null: not served there. */
  metrics: { contentType: string; render: () => Promise<string> } | null;
  /** Null: no operator token configured, so no operator routes. */
  operatorCheck: OperatorCheck | null;
  /** The API's own recent answers (the status page's API component). */
  responseWindow: ResponseWindow;
}

/** The one shape of a domain's routes: one plugin per domain, given RouteDeps. */
export type DomainRoutes = (deps: RouteDeps) => FastifyPluginAsyncTypebox;
