import type { Selectable } from 'kysely';
import type { MaintainerChange } from '../../ecosystems/registry-types';
import type { PackageMetadataTable, PackageVersionTable, VersionRiskInputs } from './tables';

/**
 * What the risk indicators need of a package's version list, computed where the versions are at
 * hand: by enrichment when it stores them (store.ts keeps the result on package_metadata as
 * `risk_inputs`) and by the package routes from the full list (facts.ts).
 */

type MetadataRow = Selectable<PackageMetadataTable>;
type VersionRow = Selectable<PackageVersionTable>;

/** The maintainer change recorded on the newest release (by the registry's order), if any. */
export function latestMaintainerChange(
  metadata: Pick<MetadataRow, 'maintainer_changes' | 'latest' | 'latest_stable'>,
  versions: readonly Pick<VersionRow, 'version'>[],
): MaintainerChange | null {
  const changes = (metadata.maintainer_changes ?? []) as MaintainerChange[];
  const newest = versions.at(-1)?.version ?? metadata.latest;
  const stable = metadata.latest_stable;
  return (
    changes.find((c) => c.version === newest) ?? changes.find((c) => c.version === stable) ?? null
  );
}

/**
 * The compact inputs kept on package_metadata (`risk_inputs`, migration 0032, which fills older
 * rows with the same rules in SQL) so that policy facts read no version rows.
 */
export function versionRiskInputs(
  metadata: Pick<MetadataRow, 'maintainer_changes' | 'latest' | 'latest_stable'>,
  versions: readonly Pick<VersionRow, 'version' | 'published_at' | 'yanked'>[],
): VersionRiskInputs {
  let newest: { version: string; publishedAt: Date } | null = null;
  for (const v of versions) {
    if (v.yanked || !v.published_at) continue;
    if (!newest || v.published_at > newest.publishedAt) {
      newest = { version: v.version, publishedAt: v.published_at };
    }
  }
  const change = latestMaintainerChange(metadata, versions);
  return {
    newestRelease: newest
      ? { version: newest.version, publishedAt: newest.publishedAt.toISOString() }
      : null,
    latestMaintainerChange: change
      ? { version: change.version, previousVersion: change.previousVersion, added: change.added }
      : null,
  };
}
