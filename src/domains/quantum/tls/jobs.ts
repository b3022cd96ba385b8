import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { PLANS, planHas } from '../../../core/plans';
import type { DB } from '../../../db/schema';
import { defineJob, jobDefinition } from '../../../jobs/contract';
import { enqueue } from '../../../jobs/outbox';
import type { JobDefinition } from '../../../jobs/queue';
import type { JobDeps } from '../../job-deps';
import { probeEndpoint } from './probe';

/**
 * The TLS observation jobs (docs/quantum.md#tls-observations):
 * - `quantum.probe-endpoint` (a probe-now request, or the schedule): one probe of one endpoint;
 *   one waiting job per endpoint, so repeated requests coalesce.
 * - `quantum.probe-due` (every minute, system): queues a probe for each endpoint whose next
 *   probe time passed, a bounded batch per run, claimed with SKIP LOCKED so two workers never
 *   queue the same endpoint twice.
 */
export const PROBE_ENDPOINT = defineJob({
  name: 'quantum.probe-endpoint',
  payload: Type.Object({ endpointId: Type.String() }),
  // A probe opens up to three connections of TLS_PROBE_TIMEOUT_MS each, two of them in turn.
  expireInSeconds: 600,
  retryLimit: 3,
  policy: 'short',
  sendOptions: (envelope) => ({ singletonKey: `${envelope.tenantId}:${envelope.data.endpointId}` }),
});

export const PROBE_DUE = defineJob({
  name: 'quantum.probe-due',
  payload: Type.Object({}),
  expireInSeconds: 120,
  retryLimit: 3,
  schedule: '* * * * *',
});

/** Endpoints queued per run of `quantum.probe-due`; the rest wait for the next minute. */
export const PROBE_DUE_BATCH = 500;

/** The plans whose tenants' endpoints are probed on schedule (a plan without `quantum`: none). */
const PROBED_PLANS = PLANS.filter((plan) => planHas(plan, 'quantum'));

/**
 * Queues the probes of due endpoints (system connection, one transaction): each claimed endpoint
 * gets its next probe time moved a full interval ahead as its job is queued, so the next run does
 * not queue it again while the probe waits; the probe sets the time from its own end.
 */
export async function queueDueProbes(system: Kysely<DB>, limit = PROBE_DUE_BATCH): Promise<number> {
  return system.transaction().execute(async (trx) => {
    const due = await trx
      .selectFrom('quantum_tls_endpoints as e')
      .innerJoin('tenants as t', 't.id', 'e.tenant_id')
      .select(['e.tenant_id', 'e.id', 'e.interval_hours'])
      .where('e.next_probe_at', '<=', new Date())
      .where('t.plan', 'in', PROBED_PLANS)
      .where('t.deletion_requested_at', 'is', null)
      .orderBy('e.next_probe_at')
      .orderBy('e.id')
      .limit(limit)
      .forUpdate('e')
      .skipLocked()
      .execute();
    for (const endpoint of due) {
      await trx
        .updateTable('quantum_tls_endpoints')
        .set({ next_probe_at: new Date(Date.now() + endpoint.interval_hours * 3_600_000) })
        .where('tenant_id', '=', endpoint.tenant_id)
        .where('id', '=', endpoint.id)
        .execute();
      await enqueue(trx, PROBE_ENDPOINT, {
        tenantId: endpoint.tenant_id,
        data: { endpointId: endpoint.id },
      });
    }
    return due.length;
  });
}

/** The TLS observation jobs, for the job list (src/background-jobs.ts). */
export function quantumTlsJobs(deps: JobDeps): JobDefinition[] {
  const probe = jobDefinition(PROBE_ENDPOINT, async (envelope) => {
    const tenantId = envelope.tenantId;
    if (!tenantId) throw new Error('a TLS probe needs a tenant');
    const result = await probeEndpoint(deps, tenantId, envelope.data.endpointId);
    if (result) deps.log('tls endpoint probed', { tenantId, ...result });
  });
  const due = jobDefinition(PROBE_DUE, async () => {
    const queued = await queueDueProbes(deps.database.system);
    if (queued > 0) deps.log('tls probes queued', { queued });
  });
  return [probe, due];
}
