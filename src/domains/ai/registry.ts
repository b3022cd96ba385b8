import type { Intent } from './intent';
import { exposures, maliciousPackages, reachability } from './intents/exposures';
import { affectedRepositories, vulnerabilityDetails } from './intents/vulnerabilities';

/**
 * Every intent, in the order a tie between equal scores is settled (the more specific first).
 * docs/questions.md lists them with their parameters and examples; a test keeps the two equal.
 */
export const INTENTS: readonly Intent[] = [
  affectedRepositories,
  vulnerabilityDetails,
  maliciousPackages,
  reachability,
  exposures,
];

export function intentNamed(name: string): Intent | undefined {
  return INTENTS.find((intent) => intent.name === name);
}
