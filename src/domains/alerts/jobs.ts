import { Type } from 'typebox';
import { withTenant } from '../../db/tenant-scope';
import { defineJob, jobDefinition } from '../../jobs/contract';
import type { JobDefinition } from '../../jobs/queue';
import type { EventName, EventSubscriptions } from '../events';
import type { JobDeps } from '../job-deps';
import { alertEvents } from './kinds';
import { raiseAlerts } from './raise';

/**
 * One job per event some alert kind listens to (`alerts.raise.<event>`): the relay gives a job
 * only its event's data, so the job's name says which event it was. Each runs `raiseAlerts` in
 * the event's tenant transaction; a retry after a crash is absorbed by the dedupe window.
 */
export function raiseJobName(event: EventName): string {
  return `alerts.raise.${event}`;
}

/** Event → the alert job it starts, for EVENT_SUBSCRIPTIONS (src/background-jobs.ts). */
export function alertSubscriptions(): EventSubscriptions {
  return Object.fromEntries(alertEvents().map((event) => [event, [raiseJobName(event)]]));
}

/** The contract of one event's alert job: its payload is the event's (an object). */
export function raiseJob(event: EventName) {
  return defineJob({
    name: raiseJobName(event),
    payload: Type.Object({}),
    expireInSeconds: 300,
    retryLimit: 5,
  });
}

export function alertJobs(deps: JobDeps): JobDefinition[] {
  return alertEvents().map((event) =>
    jobDefinition(raiseJob(event), async (envelope) => {
      const tenantId = envelope.tenantId;
      if (!tenantId) throw new Error('an alert event needs a tenant');
      const result = await withTenant(deps.database, tenantId, (db) =>
        raiseAlerts(db, tenantId, event, envelope.data),
      );
      if (result.raised.length > 0) {
        deps.log('alerts raised', {
          tenantId,
          event,
          raised: result.raised.length,
          deliveries: result.deliveries,
        });
      }
    }),
  );
}
