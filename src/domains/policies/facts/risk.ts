import { ECOSYSTEMS, type Ecosystem } from '../../../ecosystems/names';
import { type RiskMetadataRow, registryFactsOf } from '../../../intel/package-catalogue/facts';
import type { VersionRiskInputs } from '../../../intel/package-catalogue/tables';
import {
  type RiskSettings,
  type RiskSeverity,
  riskIndicators,
  type UsageFact,
} from '../../../intel/risk/indicators';
import type { DependencyFacts } from './definition';

/**
 * The `risk` facts of one dependency (docs/policies.md#facts): riskIndicators() — the function
 * behind GET /api/v1/packages/{packageId}/risk-indicators — over registry facts read from the
 * package's metadata row alone (its compact `risk_inputs`, never its version rows) and the
 * dependency's own declarations as usage.
 */

/** The catalogue columns risk reads, selected beside the other catalogue facts. */
export interface RiskCatalogueColumns {
  metadata_status: string | null;
  fetched_at: Date | null;
  latest_stable: string | null;
  last_release_at: Date | null;
  maintainers: string[] | null;
  package_deprecated: string | null;
  install_scripts: string[] | null;
  package_licence: string | null;
  risk_inputs: VersionRiskInputs | null;
  /** Whether the registry marks the used version yanked (null: the version is not listed). */
  version_yanked: boolean | null;
}

const SEVERITY_LEVEL: Record<RiskSeverity, number> = { low: 1, medium: 2, high: 3 };
const LEVEL_NAME = ['none', 'low', 'medium', 'high'] as const;

function ecosystemOf(name: string): Ecosystem | null {
  return ECOSYSTEMS.find((e) => e === name) ?? null;
}

function metadataOf(row: RiskCatalogueColumns): RiskMetadataRow | null {
  if (row.metadata_status !== 'found' || !row.fetched_at) return null;
  return {
    fetched_at: row.fetched_at,
    latest_stable: row.latest_stable,
    last_release_at: row.last_release_at,
    maintainers: row.maintainers ?? [],
    deprecated: row.package_deprecated,
    install_scripts: row.install_scripts,
    licence: row.package_licence,
  };
}

export function riskFacts(
  dependency: Pick<DependencyFacts['dependency'], 'ecosystem' | 'name' | 'version'>,
  catalogue: RiskCatalogueColumns | undefined,
  usage: readonly UsageFact[],
  settings: RiskSettings,
  now: Date,
): DependencyFacts['risk'] {
  const ecosystem = ecosystemOf(dependency.ecosystem);
  if (!ecosystem)
    return { known: false, kinds: [], count: 0, maxSeverity: 'none', maxSeverityLevel: 0 };
  const metadata = catalogue ? metadataOf(catalogue) : null;
  // Rows fetched before migration 0032 and not filled by it: unknown until the next fetch.
  const registry =
    metadata && catalogue?.risk_inputs
      ? registryFactsOf(
          ecosystem,
          metadata,
          catalogue.risk_inputs,
          new Set(catalogue.version_yanked ? [dependency.version] : []),
        )
      : null;
  const indicators = riskIndicators({
    ecosystem,
    name: dependency.name,
    registry,
    usage,
    now,
    settings,
  });
  const level = Math.max(0, ...indicators.map((i) => SEVERITY_LEVEL[i.severity]));
  return {
    known: registry !== null,
    kinds: indicators.map((i) => i.kind),
    count: indicators.length,
    maxSeverity: LEVEL_NAME[level] ?? 'none',
    maxSeverityLevel: level,
  };
}
