import type { Ecosystem } from './names';
import type { RegistryClientFactory } from './registry-types';

/**
 * The contract every ecosystem folder fulfils (docs/design.md#ecosystems). One folder per ecosystem exports
 * an `EcosystemModule` from its index.ts; `ecosystem-list.ts` lists them and a contract test loops
 * over it.
 */

export { ECOSYSTEMS, type Ecosystem } from './names';

/**
 * `self` marks the project's own package (the root crate and workspace members, the root of a
 * package-lock.json, a pom's own coordinates, the go.mod module, ...): reported so that a library
 * scanning itself sees the advisories against its released versions, never counted as a dependency
 * (docs/extraction.md "The project's own package").
 */
export type DependencyScope = 'runtime' | 'development' | 'optional' | 'test' | 'build' | 'self';

/**
 * How sure the version is: `resolved` = an exact version pinned by a lockfile (or an exact pin such
 * as `==1.2.3` / a Dockerfile tag), `declared` = a range from a manifest, `unpinned` = no version.
 */
export type Resolution = 'resolved' | 'declared' | 'unpinned';

/** Where a dependency comes from when it is not the ecosystem's registry. */
export type DependencySource =
  | { kind: 'registry' }
  | { kind: 'git'; url: string; ref: string | null }
  | { kind: 'url'; url: string }
  | { kind: 'path'; path: string }
  /**
   * A module a Go `replace` swapped out (`by`: the replacement module, or the directory, with
   * `version` null): reported at the required version so that its advisories are still seen, as
   * possibly affected (docs/vulnerabilities-matching.md "Go replace").
   */
  | { kind: 'replaced'; by: string; version: string | null };

export interface ExtractedDependency {
  /** Name normalised the ecosystem's way (PEP 503 for PyPI, group:artifact for Maven, ...). */
  name: string;
  /** Exact version when resolved, the range/spec text when declared, null when unpinned. */
  version: string | null;
  /** Package URL; carries the version only when resolved. */
  purl: string;
  scope: DependencyScope;
  direct: boolean;
  resolution: Resolution;
  /** 1-based line in the file where the entry starts, null when the format cannot tell. */
  line: number | null;
  /** Names of the packages that depend on this one, where the format records edges. */
  parents: string[];
  source: DependencySource;
}

export interface ExtractionError {
  /** 1-based line, null for whole-file problems. */
  line: number | null;
  message: string;
}

export interface ExtractionResult {
  dependencies: ExtractedDependency[];
  /** Entries skipped (one bad entry never fails the file) or the file-level failure. */
  errors: ExtractionError[];
}

export interface ExtractInput {
  /** Path relative to the scanned root, with forward slashes. */
  path: string;
  text: string;
  /**
   * Reads another file of the same tree (a `-r` include, a parent pom, a sibling manifest).
   * The path is relative to the scanned root; returns null when absent or outside the tree.
   * Parsers never touch the filesystem themselves.
   */
  readFile: (path: string) => string | null;
}

/** A large file handed to an extractor piece by piece instead of as one text. */
export interface StreamedInput {
  /** Path relative to the scanned root, with forward slashes. */
  path: string;
  /**
   * The next piece of the file's text (checked UTF-8, a leading byte-order mark dropped), null at
   * the end. Throws when the bytes are not text; the file then takes the ordinary path.
   */
  text: () => string | null;
  readFile: ExtractInput['readFile'];
}

export type ExtractorKind = 'lockfile' | 'manifest';

export interface Extractor {
  /** Stable id such as `npm/package-lock`; stored with every finding. */
  name: string;
  /** Bumped when the extractor's output changes for the same input. */
  version: number;
  kind: ExtractorKind;
  /** Claims a file by its path (usually its base name). */
  matches: (path: string) => boolean;
  /** Pure: no I/O besides `input.readFile`. Never throws for bad content; reports in `errors`. */
  extract: (input: ExtractInput) => ExtractionResult;
  /** Human label of the format as detected, e.g. `package-lock.json v3`. */
  describe?: (input: ExtractInput) => string;
  /**
   * Files of `fromBytes` and more are read from disk in pieces and handed to `extract` here
   * (docs/extraction.md, "Large lockfiles"), never held whole; `describe` then sees the first
   * 4096 characters. `extract` returns null when only the whole text gives the right answer:
   * the file is then read whole and goes through `Extractor.extract`.
   */
  stream?: { fromBytes: number; extract: (input: StreamedInput) => ExtractionResult | null };
}

/**
 * A version scheme. `compare` is the ordering OSV uses for `ECOSYSTEM` ranges of this ecosystem.
 * Invalid versions never throw: `parse` returns null and `compare` falls back to a string order.
 */
export interface Versioning {
  isValid: (version: string) => boolean;
  compare: (a: string, b: string) => number;
  /** True for pre-releases (alpha, beta, rc, snapshot, dev, ...). */
  isPrerelease: (version: string) => boolean;
  /** Range satisfaction in the ecosystem's native range syntax (`^1.2`, `>=1,<2`, `~> 1.2`, `[1.0,2.0)`). */
  satisfies: (version: string, range: string) => boolean;
  /** True when the text is a range rather than one exact version. */
  isRange: (spec: string) => boolean;
}

export interface EcosystemModule {
  id: Ecosystem;
  /** purl type (`npm`, `pypi`, `maven`, `golang`, `cargo`, `gem`, `composer`, `nuget`, `docker`). */
  purlType: string;
  /** Also the OSV `affected[].package.ecosystem` name when it differs from `id` (crates.io). */
  osvEcosystem: string;
  normaliseName: (name: string) => string;
  extractors: readonly Extractor[];
  versioning: Versioning;
  /**
   * Builds the ecosystem's registry client (`<name>/registry.ts`, contract in registry-types.ts).
   * Use `createRegistryClients(settings)` from registry-clients.ts rather than calling it directly.
   */
  registry: RegistryClientFactory;
}
