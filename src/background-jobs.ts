import { withTenant } from './db/tenant-scope';
import { alertJobs, alertSubscriptions } from './domains/alerts/jobs';
import {
  analyticsJobs,
  REFRESH_AFTER_MATCH_JOB,
  REFRESH_REPOSITORY_ROLLUPS_JOB,
} from './domains/analytics/jobs';
import { analyticsExportJobs } from './domains/analytics-export/jobs';
import { craJobs, craSubscriptions } from './domains/cra/jobs';
import { craReportingJobs, craReportingSubscriptions } from './domains/cra-reporting/jobs';
import type { EventName, EventSubscriptions } from './domains/events';
import { MATCH_DEPENDENCIES_JOB, vulnerabilityJobs } from './domains/exposures/jobs';
import { INTEGRATION_TARGET } from './domains/integrations/deliver';
import { integrationDeliveryTarget } from './domains/integrations/service';
import type { JobDeps, JobObserver } from './domains/job-deps';
import { type DeliveryContext, deliveryContext } from './domains/outbound-deliveries/attempt';
import { outboundDeliveryJobs } from './domains/outbound-deliveries/jobs';
import { DEPENDENCIES_CHANGED_JOB, packageJobs } from './domains/packages/jobs';
import { POLICY_FACT_EVENTS } from './domains/policies/evaluation/requests';
import { EVALUATE_PACKAGE_JOB, EVALUATE_REPOSITORY_JOB, policyJobs } from './domains/policies/jobs';
import { quantumTlsJobs } from './domains/quantum/tls/jobs';
import { sbomJobs } from './domains/sbom/jobs';
import { SBOM_IMPORT_JOB } from './domains/sbom/service';
import { scanJobs } from './domains/scans/jobs';
import { RUN_SCAN_JOB } from './domains/scans/service';
import { findScan } from './domains/scans/store';
import { statusJobs } from './domains/status/jobs';
import { STATUS_WEBHOOK_TARGET, statusWebhookTarget } from './domains/status/subscriptions/service';
import { tenantJobs } from './domains/tenants/jobs';
import type { JobDefinition, JobEnvelope } from './jobs/queue';

/**
 * Part of the composition root, beside app.ts: everything the service runs in the background,
 * readable in one file (docs/architecture.md#jobs-and-events). Domains export their job
 * definitions; this file lists them and says which jobs each internal event starts.
 */

/** Lists the jobs of both maps under each event (neither replaces the other). */
function mergeSubscriptions(...maps: EventSubscriptions[]): EventSubscriptions {
  const merged: Partial<Record<EventName, string[]>> = {};
  for (const map of maps) {
    for (const [event, jobs] of Object.entries(map) as [EventName, readonly string[]][]) {
      merged[event] = [...(merged[event] ?? []), ...jobs];
    }
  }
  return merged;
}

/**
 * Event → the jobs it starts, one job per subscriber (each retries on its own). Alerting listens
 * to every event an alert kind names (`alerts.raise.<event>`, from the kind registry).
 */
export const EVENT_SUBSCRIPTIONS: EventSubscriptions = mergeSubscriptions(
  {
    'dependencies.changed': [MATCH_DEPENDENCIES_JOB, DEPENDENCIES_CHANGED_JOB],
    // A scan's policies are evaluated once, after its exposures are matched (the matcher emits
    // exposures.refreshed for every dependencies.changed): an evaluation on dependencies.changed
    // too saw the scan without its exposures and did the whole repository twice.
    // A repository's dashboard rollups refresh once per change that moves its numbers; a scan's
    // once, at the end of its chain: its evaluation's policy_violations.changed, which sees the
    // scan's exposures and violations (the refresh after matching passes over a scan's).
    'exposures.refreshed': [EVALUATE_REPOSITORY_JOB, REFRESH_AFTER_MATCH_JOB],
    'exposures.status_changed': [REFRESH_REPOSITORY_ROLLUPS_JOB],
    'policy_violations.changed': [REFRESH_REPOSITORY_ROLLUPS_JOB],
    'drift.updated': [REFRESH_REPOSITORY_ROLLUPS_JOB],
    'package.health_changed': [EVALUATE_PACKAGE_JOB],
    'integration.disabled': [],
  },
  // Policies evaluate the dependencies whose facts changed outside a scan, once per change.
  Object.fromEntries(POLICY_FACT_EVENTS.map((event) => [event, [EVALUATE_REPOSITORY_JOB]])),
  alertSubscriptions(),
  craSubscriptions(),
  craReportingSubscriptions(),
);

/**
 * The outbound delivery module's context: every domain that owns delivery targets registers
 * its adapter here under its target kind (docs/integrations.md#the-shared-delivery-module).
 */
export function outboundDeliveries(deps: JobDeps): DeliveryContext {
  return deliveryContext({
    database: deps.database,
    config: deps.config,
    log: deps.log,
    targets: {
      [INTEGRATION_TARGET]: integrationDeliveryTarget(deps.secretBox),
      // System-owned deliveries (docs/decisions/0007-system-owned-deliveries.md).
      [STATUS_WEBHOOK_TARGET]: statusWebhookTarget(deps.secretBox),
    },
  });
}

/** Every job the worker registers (observed when `deps.observe` is set). */
export function jobDefinitions(deps: JobDeps): JobDefinition[] {
  const definitions = [
    ...tenantJobs(deps),
    ...scanJobs(deps),
    ...sbomJobs(deps),
    ...vulnerabilityJobs(deps),
    ...packageJobs(deps),
    ...analyticsJobs(deps),
    ...analyticsExportJobs(deps),
    ...outboundDeliveryJobs(deps, outboundDeliveries(deps)),
    ...policyJobs(deps),
    ...alertJobs(deps),
    ...craJobs(deps),
    ...craReportingJobs(deps),
    ...quantumTlsJobs(deps),
    ...statusJobs(deps),
  ];
  const observe = deps.observe;
  return observe ? definitions.map((d) => observed(deps, observe, d)) : definitions;
}

/** The jobs that run one scan: their data names it. */
const SCAN_RUNS = new Set([RUN_SCAN_JOB, SBOM_IMPORT_JOB]);

/**
 * Times every handler; around a scan run, reads the scan's state before and after and reports
 * its final state and duration when this run ended it (a run that found its scan already
 * finished, or left it queued for a retry, reports nothing).
 */
function observed(deps: JobDeps, observe: JobObserver, definition: JobDefinition): JobDefinition {
  const scanRun = SCAN_RUNS.has(definition.name);
  return {
    ...definition,
    handle: async (envelope) => {
      const started = Date.now();
      const before = scanRun ? await readScan(deps, envelope) : undefined;
      try {
        await definition.handle(envelope);
        observe.jobFinished(definition.name, 'completed', (Date.now() - started) / 1000);
      } catch (error) {
        observe.jobFinished(definition.name, 'failed', (Date.now() - started) / 1000);
        throw error;
      } finally {
        if (before && !before.finished_at) {
          const after = await readScan(deps, envelope);
          if (after?.finished_at) {
            const from = after.started_at ?? after.finished_at;
            observe.scanFinished(
              after.state,
              (after.finished_at.getTime() - from.getTime()) / 1000,
            );
          }
        }
      }
    },
  };
}

/** The scan a scan run's job names, or undefined (malformed job, gone, unreadable). */
async function readScan(deps: JobDeps, envelope: JobEnvelope<unknown>) {
  const data = envelope.data;
  const scanId =
    typeof data === 'object' && data !== null && 'scanId' in data ? data.scanId : undefined;
  if (!envelope.tenantId || typeof scanId !== 'string') return undefined;
  return withTenant(deps.database, envelope.tenantId, (db) => findScan(db, scanId)).catch(
    () => undefined,
  );
}
