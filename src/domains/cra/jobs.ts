import { withTenant } from '../../db/tenant-scope';
import type { EventSubscriptions, ExposuresChanged } from '../../jobs/outbox';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { detectExploitations } from './exploitation';

/**
 * An exposure that opens (or comes back) against a vulnerability on the known-exploited list makes
 * the product it is in actively exploited: this job checks the event's exposures and records and
 * emits `cra.actively_exploited` once per product and vulnerability (docs/cra.md#known-exploited).
 */
export const CRA_DETECT_EXPLOITED_JOB = 'cra.detect_exploited';

export function craSubscriptions(): EventSubscriptions {
  return {
    'exposures.opened': [CRA_DETECT_EXPLOITED_JOB],
    'exposures.reopened': [CRA_DETECT_EXPLOITED_JOB],
  };
}

function exposureIdsOf(data: unknown): string[] {
  if (typeof data !== 'object' || data === null || !('exposures' in data)) return [];
  const exposures = (data as Partial<ExposuresChanged>).exposures;
  if (!Array.isArray(exposures)) return [];
  return exposures.map((e) => e?.exposureId).filter((id): id is string => typeof id === 'string');
}

export function craJobs(deps: JobDeps): JobDefinition<unknown>[] {
  return [
    {
      name: CRA_DETECT_EXPLOITED_JOB,
      expireInSeconds: 300,
      retryLimit: 5,
      handle: async (envelope) => {
        const tenantId = envelope.tenantId;
        if (!tenantId) throw new Error('an exposure event needs a tenant');
        const exposureIds = exposureIdsOf(envelope.data);
        if (exposureIds.length === 0) return;
        const found = await withTenant(deps.database, tenantId, (db) =>
          detectExploitations(db, { tenantId, exposureIds }),
        );
        if (found > 0)
          deps.log('cra: actively exploited vulnerabilities found', { tenantId, found });
      },
    },
  ];
}
