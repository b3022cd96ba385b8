import type { Intent } from './intent';
import {
  changesSince,
  craClocksDue,
  expiringExceptions,
  licenceViolations,
  policyViolations,
  quantumFindings,
  scanFailures,
} from './intents/activity';
import {
  fixedVersions,
  licenceInventory,
  policiesList,
  versionsInUse,
  watchedPackages,
} from './intents/catalogue';
import { inventory, trends } from './intents/counts';
import { exposures, maliciousPackages, reachability } from './intents/exposures';
import {
  craFindings,
  deprecatedPackages,
  majorsBehind,
  staleScans,
  tlsVerdicts,
} from './intents/hygiene';
import {
  alertRules,
  dependencyCounts,
  exposuresByEcosystem,
  exposuresByRepository,
  mostVulnerablePackages,
  repositoriesByCriticality,
  repositoryScans,
} from './intents/inventory';
import {
  activeExceptions,
  craProducts,
  expiringCertificates,
  openAlerts,
  sbomExports,
  tlsEndpoints,
} from './intents/operations';
import {
  driftedPackagesIntent,
  driftedRepositoriesIntent,
  lowHealth,
  packageUsage,
} from './intents/packages';
import { affectedRepositories, vulnerabilityDetails } from './intents/vulnerabilities';

/**
 * Every intent, in the order a tie between equal scores is settled (the more specific first).
 * docs/questions.md lists them with their parameters and examples.
 */
export const INTENTS: readonly Intent[] = [
  affectedRepositories,
  fixedVersions,
  vulnerabilityDetails,
  maliciousPackages,
  reachability,
  licenceViolations,
  licenceInventory,
  expiringExceptions,
  activeExceptions,
  craFindings,
  craProducts,
  craClocksDue,
  expiringCertificates,
  tlsVerdicts,
  quantumFindings,
  staleScans,
  scanFailures,
  alertRules,
  openAlerts,
  sbomExports,
  tlsEndpoints,
  versionsInUse,
  watchedPackages,
  deprecatedPackages,
  majorsBehind,
  exposuresByEcosystem,
  exposuresByRepository,
  mostVulnerablePackages,
  dependencyCounts,
  lowHealth,
  trends,
  packageUsage,
  driftedRepositoriesIntent,
  driftedPackagesIntent,
  policyViolations,
  exposures,
  policiesList,
  changesSince,
  repositoryScans,
  repositoriesByCriticality,
  inventory,
];

export function intentNamed(name: string): Intent | undefined {
  return INTENTS.find((intent) => intent.name === name);
}
