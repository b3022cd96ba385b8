import { jobDefinition } from '../../jobs/contract';
import type { JobDefinition } from '../../jobs/queue';
import type { JobDeps } from '../job-deps';
import { runSbomExportJob, runSbomImportJob, SBOM_EXPORT, SBOM_IMPORT } from './service';

/** The SBOM domain's jobs: one import per accepted document, one export per request. */
export function sbomJobs(deps: JobDeps): JobDefinition[] {
  return [
    jobDefinition(SBOM_IMPORT, (envelope) => runSbomImportJob(deps, envelope)),
    jobDefinition(SBOM_EXPORT, (envelope) => runSbomExportJob(deps, envelope)),
  ];
}
