import { jobDefinition } from '../../jobs/contract';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { GENERATE_ARCHIVE, generateArchive } from './archives';

/** `compliance.generate-archive` (queued by POST /api/v1/compliance/evidence-archives). */
export function complianceJobs(deps: JobDeps): JobDefinition[] {
  const generate = jobDefinition(GENERATE_ARCHIVE, async (envelope) => {
    if (!envelope.tenantId) throw new Error('this job needs a tenant');
    await generateArchive(deps, envelope.tenantId, envelope.data.archiveId);
  });
  return [generate];
}
