import { createHash } from 'node:crypto';
import type { Ecosystem } from '../../../src/ecosystems/types';

/**
 * What the fake registries know about a package, in one shape for all nine ecosystems. Each
 * ecosystem's renderer turns it into that registry's own documents (packument, JSON API,
 * maven-metadata.xml + POMs, module proxy files, ...), with the real field sets.
 */

export interface FakeVersion {
  version: string;
  /** ISO 8601 release time. */
  publishedAt: string;
  /** Deprecation message of this version (npm, NuGet; Packagist uses `abandoned` on the package). */
  deprecated?: string;
  /** NuGet only: the alternate package named by this version's deprecation. */
  alternatePackage?: string;
  /** Yanked/unlisted/retracted; RubyGems drops it from the listing. */
  yanked?: boolean;
  yankedReason?: string;
  licence?: string;
  /** npm per-version maintainers (defaults to the package's). */
  maintainers?: string[];
  publishedBy?: string;
  /** npm scripts of this version (e.g. `{ postinstall: 'node setup.js' }`). */
  scripts?: Record<string, string>;
  downloads?: number;
  /** RubyGems: extra platform builds of the same version (`java`). */
  platforms?: string[];
}

export interface FakePackage {
  /** As the registry spells it (NuGet and Packagist keep display case here). */
  name: string;
  description: string;
  licence: string;
  repositoryUrl: string;
  homepage: string;
  maintainers: string[];
  downloads: number;
  versions: FakeVersion[];
  /** Package-level deprecation: Packagist `abandoned`, Go `// Deprecated:`, PyPI inactive classifier, Maven relocation. */
  deprecated?: string;
  /** Packagist abandoned replacement, Maven relocation target. */
  successor?: string;
  /** npm dist-tags (latest defaults to the newest non-prerelease). */
  distTags?: Record<string, string>;
  /** Maven: `group:artifact:version` of the parent POM (the licence is then left to the parent). */
  mavenParent?: string;
}

/** Deterministic hex digest of text (fake checksums, commit ids, digests). */
export function hex(text: string, length = 64): string {
  return createHash('sha256').update(text).digest('hex').slice(0, length);
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** `2024-01-02T03:04:05.000Z` → `2024-01-02T03:04:05`. */
export function withoutZone(iso: string): string {
  return iso.replace(/\.\d+Z$|Z$/, '');
}

const VERSION_SHAPES: Record<Ecosystem, (major: number, minor: number, patch: number) => string> = {
  npm: (a, b, c) => `${a}.${b}.${c}`,
  PyPI: (a, b, c) => `${a}.${b}.${c}`,
  Maven: (a, b, c) => `${a}.${b}.${c}`,
  Go: (a, b, c) => `v1.${a * 5 + b}.${c}`,
  Cargo: (a, b, c) => `${a}.${b}.${c}`,
  RubyGems: (a, b, c) => `${a}.${b}.${c}`,
  Composer: (a, b, c) => `v${a}.${b}.${c}`,
  NuGet: (a, b, c) => `${a}.${b}.${c}`,
  Docker: (a, b, c) => `${a}.${b}.${c}`,
};

const NAME_SHAPES: Record<Ecosystem, (i: number) => string> = {
  npm: (i) => `bench-pkg-${i}`,
  PyPI: (i) => `bench-pkg-${i}`,
  Maven: (i) => `org.bench:pkg-${i}`,
  Go: (i) => `example.org/bench/pkg${i}`,
  Cargo: (i) => `bench-pkg-${i}`,
  RubyGems: (i) => `bench-pkg-${i}`,
  Composer: (i) => `bench/pkg-${i}`,
  NuGet: (i) => `Bench.Pkg${i}`,
  Docker: (i) => `bench/pkg${i}`,
};

/** A generated package with `versionCount` releases a week apart, for benchmarks and paging. */
export function generatePackage(
  ecosystem: Ecosystem,
  index: number,
  versionCount = 12,
  start = Date.UTC(2020, 0, 1),
): FakePackage {
  const name = NAME_SHAPES[ecosystem](index);
  const versions: FakeVersion[] = [];
  for (let i = 0; i < versionCount; i++) {
    const major = Math.floor(i / 25);
    const minor = Math.floor(i / 5) % 5;
    const patch = i % 5;
    versions.push({
      version: VERSION_SHAPES[ecosystem](major, minor, patch),
      publishedAt: new Date(start + i * 7 * 86_400_000 + index * 60_000).toISOString(),
      downloads: 1000 + i,
      licence: 'MIT',
    });
  }
  return {
    name,
    description: `Generated package ${index}`,
    licence: 'MIT',
    repositoryUrl: `https://git.example.org/bench/pkg-${index}`,
    homepage: `https://bench.example.org/pkg-${index}`,
    maintainers: [`maintainer-${index % 17}`],
    downloads: 10_000 + index,
    versions,
  };
}
