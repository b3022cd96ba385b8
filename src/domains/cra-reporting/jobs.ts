import { Type } from 'typebox';
import { withTenant } from '../../db/tenant-scope';
import { defineJob, jobDefinition } from '../../jobs/contract';
import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import type { EventSubscriptions } from '../events';
import type { JobDeps } from '../job-deps';
import { GENERATE_PACK, generatePack } from './packs/service';
import { startVulnerabilityClocks, sweepTenantClocks } from './service';
import { tenantsWithClocksToSweep } from './store';

/**
 * CRA reporting jobs (docs/cra.md#article-14-clocks):
 * - `cra-reporting.start-clocks` (event `cra.actively_exploited`): the vulnerability's early
 *   warning and notification clocks;
 * - `cra-reporting.sweep-clocks` (every minute): running clocks past due become missed, clocks
 *   past their warning time raise `cra.clock_due` once;
 * - `cra-reporting.generate-pack` (queued by POST /api/v1/cra/reports): one report pack.
 */
export const START_CLOCKS = defineJob({
  name: 'cra-reporting.start-clocks',
  // The `cra.actively_exploited` payload.
  payload: Type.Object({
    tenantId: Type.String(),
    productId: Type.String(),
    vulnerabilityId: Type.String(),
    cveId: Type.String(),
    exposureId: Type.String(),
    detectedAt: Type.String(),
  }),
  expireInSeconds: 300,
  retryLimit: 5,
});
export const SWEEP_CLOCKS = defineJob({
  name: 'cra-reporting.sweep-clocks',
  payload: Type.Object({}),
  expireInSeconds: 300,
  retryLimit: 3,
  schedule: '* * * * *',
});

export function craReportingSubscriptions(): EventSubscriptions {
  return { 'cra.actively_exploited': [START_CLOCKS.name] };
}

function tenantOf(envelope: JobEnvelope<unknown>): string {
  if (!envelope.tenantId) throw new Error('this job needs a tenant');
  return envelope.tenantId;
}

export function craReportingJobs(deps: JobDeps): JobDefinition[] {
  const startClocks = jobDefinition(START_CLOCKS, async (envelope) => {
    const tenantId = tenantOf(envelope);
    const data = envelope.data;
    const started = await withTenant(deps.database, tenantId, (db) =>
      startVulnerabilityClocks(db, data),
    );
    deps.log('cra clocks started', {
      tenantId,
      productId: data.productId,
      started: started.length,
    });
  });
  const sweepClocks = jobDefinition(SWEEP_CLOCKS, async () => {
    const now = new Date();
    for (const tenantId of await tenantsWithClocksToSweep(deps.database.system, now)) {
      const counts = await withTenant(deps.database, tenantId, (db) =>
        sweepTenantClocks(db, tenantId, now),
      );
      deps.log('cra clocks swept', { tenantId, ...counts });
    }
  });
  const generate = jobDefinition(GENERATE_PACK, async (envelope) => {
    await generatePack(deps, tenantOf(envelope), envelope.data.packId);
  });
  return [startClocks, sweepClocks, generate];
}
