import type { JobDefinition, JobEnvelope } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import {
  runSbomExportJob,
  runSbomImportJob,
  SBOM_EXPORT_JOB,
  SBOM_IMPORT_JOB,
  type SbomExportJob,
  type SbomImportJob,
} from './service';

/** The SBOM domain's jobs: one import per accepted document, one export per request. */
export function sbomJobs(deps: JobDeps): JobDefinition<unknown>[] {
  return [
    {
      name: SBOM_IMPORT_JOB,
      // One transaction; an expired (crashed) run left the scan queued, and the retry claims it.
      expireInSeconds: 900,
      retryLimit: 3,
      handle: (envelope) => runSbomImportJob(deps, envelope as JobEnvelope<SbomImportJob>),
    },
    {
      name: SBOM_EXPORT_JOB,
      expireInSeconds: 900,
      retryLimit: 3,
      handle: (envelope) => runSbomExportJob(deps, envelope as JobEnvelope<SbomExportJob>),
    },
  ];
}
