import { withTenant } from '../../db/tenant-scope';
import type { CraActivelyExploited, EventSubscriptions } from '../../jobs/outbox';
import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { GENERATE_PACK_JOB_NAME, generatePack } from './packs/service';
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
export const START_CLOCKS_JOB = 'cra-reporting.start-clocks';
export const SWEEP_CLOCKS_JOB = 'cra-reporting.sweep-clocks';
export const GENERATE_PACK_JOB = GENERATE_PACK_JOB_NAME;

export interface GeneratePackJob {
  packId: string;
}

export function craReportingSubscriptions(): EventSubscriptions {
  return { 'cra.actively_exploited': [START_CLOCKS_JOB] };
}

function tenantOf(envelope: JobEnvelope<unknown>): string {
  if (!envelope.tenantId) throw new Error('this job needs a tenant');
  return envelope.tenantId;
}

export function craReportingJobs(deps: JobDeps): JobDefinition<unknown>[] {
  const startClocks: JobDefinition<CraActivelyExploited> = {
    name: START_CLOCKS_JOB,
    expireInSeconds: 300,
    retryLimit: 5,
    handle: async (envelope) => {
      const tenantId = tenantOf(envelope);
      const data = envelope.data;
      if (typeof data?.productId !== 'string' || typeof data.vulnerabilityId !== 'string') return;
      const started = await withTenant(deps.database, tenantId, (db) =>
        startVulnerabilityClocks(db, data),
      );
      deps.log('cra clocks started', {
        tenantId,
        productId: data.productId,
        started: started.length,
      });
    },
  };
  const sweepClocks: JobDefinition<unknown> = {
    name: SWEEP_CLOCKS_JOB,
    expireInSeconds: 300,
    retryLimit: 3,
    schedule: '* * * * *',
    handle: async () => {
      const now = new Date();
      for (const tenantId of await tenantsWithClocksToSweep(deps.database.system, now)) {
        const counts = await withTenant(deps.database, tenantId, (db) =>
          sweepTenantClocks(db, tenantId, now),
        );
        deps.log('cra clocks swept', { tenantId, ...counts });
      }
    },
  };
  const generate: JobDefinition<GeneratePackJob> = {
    name: GENERATE_PACK_JOB,
    expireInSeconds: 900,
    retryLimit: 2,
    handle: async (envelope) => {
      const tenantId = tenantOf(envelope);
      const { packId } = envelope.data ?? ({} as GeneratePackJob);
      if (typeof packId !== 'string') return;
      await generatePack(deps, tenantId, packId);
    },
  };
  return [startClocks, sweepClocks, generate] as JobDefinition<unknown>[];
}
