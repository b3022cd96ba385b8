import type { PackageMetadata } from '../../../src/ecosystems/registry-types';

/** Registry answers for the shared package catalogue, as a registry client returns them. */

export interface MetadataOptions extends Partial<Omit<PackageMetadata, 'versions'>> {
  /** Versions that are yanked (the latest stable passes over them). */
  yanked?: string[];
  /** Days between two versions' publication, the first on 2025-01-01 (default 30). */
  spacingDays?: number;
}

/** An npm package's metadata: `versions` oldest first, the last one not yanked latest stable. */
export function packageMetadata(
  name: string,
  versions: string[],
  options: MetadataOptions = {},
): PackageMetadata {
  const { yanked = [], spacingDays = 30, ...fields } = options;
  return {
    ecosystem: 'npm',
    name,
    purl: `pkg:npm/${name}`,
    versions: versions.map((version, i) => ({
      version,
      publishedAtUtc: new Date(Date.UTC(2025, 0, 1 + i * spacingDays)).toISOString(),
      deprecated: null,
      yanked: yanked.includes(version),
      prerelease: false,
      licence: 'MIT',
    })),
    latestStable: versions.filter((v) => !yanked.includes(v)).at(-1) ?? null,
    latest: versions.at(-1) ?? null,
    deprecated: null,
    successor: null,
    licence: 'MIT',
    repositoryUrl: null,
    homepage: null,
    description: null,
    maintainers: ['alice'],
    maintainerChanges: [],
    downloads: null,
    fetchedAtUtc: new Date().toISOString(),
    etag: null,
    lastModified: null,
    notModified: false,
    notes: [],
    ...fields,
  };
}
