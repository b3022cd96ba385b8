import { alertJobs, alertSubscriptions } from './domains/alerts/jobs';
import {
  analyticsJobs,
  REFRESH_AFTER_MATCH,
  REFRESH_REPOSITORY_ROLLUPS,
} from './domains/analytics/jobs';
import { analyticsExportJobs } from './domains/analytics-export/jobs';
import { billingJobs } from './domains/billing/jobs';
import { complianceJobs } from './domains/compliance/jobs';
import { craJobs, craSubscriptions } from './domains/cra/jobs';
import { craReportingJobs, craReportingSubscriptions } from './domains/cra-reporting/jobs';
import type { EventName, EventSubscriptions } from './domains/events';
import { MATCH_DEPENDENCIES, vulnerabilityJobs } from './domains/exposures/jobs';
import { INTEGRATION_TARGET } from './domains/integrations/deliver';
import { integrationDeliveryTarget } from './domains/integrations/service';
import type { JobDeps, JobObserver } from './domains/job-deps';
import { type DeliveryContext, deliveryContext } from './domains/outbound-deliveries/attempt';
import { outboundDeliveryJobs } from './domains/outbound-deliveries/jobs';
import { DEPENDENCIES_CHANGED, packageJobs } from './domains/packages/jobs';
import { POLICY_FACT_EVENTS } from './domains/policies/evaluation/requests';
import { EVALUATE_PACKAGE, EVALUATE_REPOSITORY, policyJobs } from './domains/policies/jobs';
import { quantumTlsJobs } from './domains/quantum/tls/jobs';
import { sbomJobs } from './domains/sbom/jobs';
import { scanJobs } from './domains/scans/jobs';
import { statusJobs } from './domains/status/jobs';
import { STATUS_WEBHOOK_TARGET, statusWebhookTarget } from './domains/status/subscriptions/service';
import { tenantJobs } from './domains/tenants/jobs';
import type { JobDefinition } from './jobs/queue';

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
    'dependencies.changed': [MATCH_DEPENDENCIES.name, DEPENDENCIES_CHANGED.name],
    // A scan's policies are evaluated once, after its exposures are matched (the matcher emits
    // exposures.refreshed for every dependencies.changed): an evaluation on dependencies.changed
    // too saw the scan without its exposures and did the whole repository twice.
    // A repository's dashboard rollups refresh once per change that moves its numbers; a scan's
    // once, at the end of its chain: its evaluation's policy_violations.changed, which sees the
    // scan's exposures and violations (the refresh after matching accepts only an advisory
    // re-match's event: a scan's starts no job).
    'exposures.refreshed': [EVALUATE_REPOSITORY.name, REFRESH_AFTER_MATCH.name],
    'exposures.status_changed': [REFRESH_REPOSITORY_ROLLUPS.name],
    'policy_violations.changed': [REFRESH_REPOSITORY_ROLLUPS.name],
    'drift.updated': [REFRESH_REPOSITORY_ROLLUPS.name],
    // The dashboard's summary drops a deleted repository (docs/workspace.md#dashboards-and-trends).
    'repository.deleted': [REFRESH_REPOSITORY_ROLLUPS.name],
    'package.health_changed': [EVALUATE_PACKAGE.name],
    'integration.disabled': [],
  },
  // Policies evaluate the dependencies whose facts changed outside a scan, once per change.
  Object.fromEntries(POLICY_FACT_EVENTS.map((event) => [event, [EVALUATE_REPOSITORY.name]])),
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
    ...complianceJobs(deps),
    ...statusJobs(deps),
    ...billingJobs(deps),
  ];
  const observe = deps.observe;
  return observe ? definitions.map((d) => observed(observe, d)) : definitions;
}

/**
 * Times every handler, by queue and outcome. A scan's final state and duration are reported by
 * the scan run that ended it (src/domains/scans/lifecycle.ts, `reportScanEnd`), from the row
 * its final move returned: nothing here reads a scan.
 */
function observed(observe: JobObserver, definition: JobDefinition): JobDefinition {
  return {
    ...definition,
    handle: async (envelope) => {
      const started = Date.now();
      try {
        await definition.handle(envelope);
        observe.jobFinished(definition.name, 'completed', (Date.now() - started) / 1000);
      } catch (error) {
        observe.jobFinished(definition.name, 'failed', (Date.now() - started) / 1000);
        throw error;
      }
    },
  };
}
