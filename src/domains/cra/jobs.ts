import { Type } from 'typebox';
import { withTenant } from '../../db/tenant-scope';
import { defineJob, jobDefinition } from '../../jobs/contract';
import type { JobDefinition } from '../../jobs/queue';
import type { EventSubscriptions } from '../events';
import type { JobDeps } from '../job-deps';
import { detectExploitations } from './findings/exploitation';

/**
 * An exposure that opens (or comes back) against a vulnerability on the known-exploited list makes
 * the product it is in actively exploited: this job checks the event's exposures and records and
 * emits `cra.actively_exploited` once per product and vulnerability (docs/cra.md#known-exploited).
 */
export const CRA_DETECT_EXPLOITED = defineJob({
  name: 'cra.detect_exploited',
  // The `exposures.opened` / `exposures.reopened` payload; only the exposures' ids are read.
  payload: Type.Object({ exposures: Type.Array(Type.Object({ exposureId: Type.String() })) }),
  expireInSeconds: 300,
  retryLimit: 5,
});

export function craSubscriptions(): EventSubscriptions {
  return {
    'exposures.opened': [CRA_DETECT_EXPLOITED.name],
    'exposures.reopened': [CRA_DETECT_EXPLOITED.name],
  };
}

export function craJobs(deps: JobDeps): JobDefinition[] {
  return [
    jobDefinition(CRA_DETECT_EXPLOITED, async (envelope) => {
      const tenantId = envelope.tenantId;
      if (!tenantId) throw new Error('an exposure event needs a tenant');
      const exposureIds = envelope.data.exposures.map((e) => e.exposureId);
      if (exposureIds.length === 0) return;
      const found = await withTenant(deps.database, tenantId, (db) =>
        detectExploitations(db, { tenantId, exposureIds }),
      );
      if (found > 0) deps.log('cra: actively exploited vulnerabilities found', { tenantId, found });
    }),
  ];
}
