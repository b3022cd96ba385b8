import type { Ecosystem } from './names';

/**
 * The normalised view of a package as its registry describes it (docs/design.md#ecosystems), the same shape for
 * all nine ecosystems, and the client contract every `src/ecosystems/<name>/registry.ts` fulfils.
 *
 * Fields a registry cannot tell are `null` (or `undefined` for the optional per-version extras);
 * what each registry can and cannot tell is listed in docs/registries.md. Everything here is plain
 * JSON (strings, numbers, booleans, arrays, objects), so callers may store it as jsonb as is.
 */

export interface PackageVersionMetadata {
  /** The version exactly as the registry spells it (Go keeps the `v`, Maven its qualifiers). */
  version: string;
  /** Release time, ISO 8601 with `Z`; null when the registry does not tell (or it was not fetched). */
  publishedAtUtc: string | null;
  /** Deprecation message of this version ('' is normalised to a generic message), null if not deprecated. */
  deprecated: string | null;
  /**
   * Withdrawn by the publisher: yanked (PyPI, crates, RubyGems), unlisted (NuGet), retracted (Go).
   * Registries that drop yanked versions from their listing (RubyGems' versions API) never say true.
   */
  yanked: boolean;
  /** Why it was yanked/retracted, when the registry says (PyPI `yanked_reason`, Go retract comment). */
  yankedReason?: string | null;
  /** The ecosystem's own pre-release rule (module.versioning.isPrerelease). */
  prerelease: boolean;
  /** SPDX expression or the registry's licence text for this version; null when unknown. */
  licence: string | null;
  /** Maintainers/owners recorded on this version (npm `maintainers`, RubyGems authors), when told. */
  maintainers?: string[];
  /** Who published this version (npm `_npmUser.name`, crates `published_by.login`), when told. */
  publishedBy?: string | null;
  /** npm: the version runs `preinstall`, `install` or `postinstall` (or has a binding.gyp → `install`). */
  hasInstallScripts?: boolean;
  /** npm: the names of the install-time scripts it declares. */
  installScripts?: string[];
  /** Downloads of this version where the registry reports it (crates, NuGet, RubyGems). */
  downloads?: number | null;
}

/** A change in the maintainer set from one version to the next (ascending release order). */
export interface MaintainerChange {
  version: string;
  previousVersion: string;
  added: string[];
  removed: string[];
}

export interface DownloadCount {
  count: number;
  /** What the count covers: all time, or the window the registry reports. */
  period: 'total' | 'last-day' | 'last-week' | 'last-month' | 'last-90-days';
}

export interface PackageMetadata {
  ecosystem: Ecosystem;
  /** Normalised the ecosystem's way (module.normaliseName). */
  name: string;
  /** Package URL without version. */
  purl: string;
  /** Every version the registry lists, ascending in the ecosystem's order. */
  versions: PackageVersionMetadata[];
  /** Newest version that is neither a pre-release nor yanked (deprecated releases count). */
  latestStable: string | null;
  /** The registry's own "latest" pointer (npm dist-tag, Go @latest, ...) or the newest version. */
  latest: string | null;
  /** Package-level deprecation (npm: every version deprecated; Packagist `abandoned`; NuGet latest deprecated; Go `// Deprecated:`). */
  deprecated: string | null;
  /** Successor the registry names (Packagist `abandoned` string, NuGet alternatePackage, npm "use X" message). */
  successor: string | null;
  /** Licence of the latest version (SPDX where the registry gives one). */
  licence: string | null;
  repositoryUrl: string | null;
  homepage: string | null;
  description: string | null;
  /** Current maintainers/owners (of the latest version where per-version data exists). */
  maintainers: string[];
  /** Maintainer set changes between consecutive versions, where the registry records them per version. */
  maintainerChanges: MaintainerChange[];
  /** Popularity where the registry reports it; null otherwise. */
  downloads: DownloadCount | null;
  fetchedAtUtc: string;
  /** Validators of the main document, for conditional re-fetches. */
  etag: string | null;
  lastModified: string | null;
  /** True when this is `previous` revalidated by a 304 (content unchanged, fetchedAtUtc updated). */
  notModified: boolean;
  /** Limits that applied to this answer (e.g. release times fetched for the newest N versions only). */
  notes: string[];
}

export type RegistryStatus =
  | { state: 'enabled'; baseUrl: string }
  | { state: 'disabled'; reason: string };

export interface FetchPackageOptions {
  /**
   * The last answer for this package (from a cache or the database). Its etag/lastModified make the
   * request conditional; a 304 returns it again with `notModified: true` and a new fetchedAtUtc.
   */
  previous?: PackageMetadata | null;
  /**
   * Versions whose details must be fetched even where the client limits per-version requests
   * (Go .info, Maven POM dates, OCI manifests): e.g. the versions the tenants actually use.
   */
  versionsOfInterest?: readonly string[];
  signal?: AbortSignal;
}

export interface RegistryClient {
  ecosystem: Ecosystem;
  status: RegistryStatus;
  /**
   * The package's metadata, or null when the registry does not know it (404/410).
   * Throws `RetryableRegistryError` (429/5xx/network/timeout, with retryAfterSeconds) and
   * `RegistryError` (disabled client, unusable answer, too large); never anything else.
   */
  fetchPackage(name: string, options?: FetchPackageOptions): Promise<PackageMetadata | null>;
}

/** A cache of raw responses keyed by URL (conditional requests revalidate entries). */
export interface RegistryCacheEntry {
  etag: string | null;
  lastModified: string | null;
  body: string;
  storedAtMs: number;
}

export interface RegistryCache {
  get(url: string): RegistryCacheEntry | undefined;
  set(url: string, entry: RegistryCacheEntry): void;
}

/** Settings a client factory receives: its base URL (null → disabled) and the shared HTTP layer. */
export interface RegistryClientSettings {
  baseUrl: string | null;
  http: RegistryHttp;
  /** Upper bound for per-version detail requests (Go .info, Maven POMs, OCI manifests). */
  maxVersionDetails: number;
  /** npm only: base of the download-counts API (`/downloads/point/last-week/<name>`); null skips counts. */
  downloadsUrl?: string | null;
}

export type RegistryClientFactory = (settings: RegistryClientSettings) => RegistryClient;

export interface RegistryResponse {
  /** 304 only when the caller's own `etag`/`lastModified` matched (body is then the cached one or ''). */
  status: 200 | 304;
  body: string;
  etag: string | null;
  lastModified: string | null;
  headers: Headers;
  /** The body came from the cache (revalidated by a 304, or an immutable entry not re-requested). */
  fromCache: boolean;
}

export interface RegistryRequest {
  url: string;
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  /** Conditional request validators (from `previous` or the cache). */
  etag?: string | null;
  lastModified?: string | null;
  signal?: AbortSignal;
  /** Use and fill the response cache for this URL (default true for GET). */
  cache?: boolean;
  /** The document never changes once published (Go .info/.mod, a released POM): a cached copy is used without asking. */
  immutable?: boolean;
}

/** The shared HTTP layer (src/ecosystems/registry-http.ts). */
export interface RegistryHttp {
  /** null on 404/410; a 304 answered from the cache comes back as status 200 with the cached body. */
  get(request: RegistryRequest): Promise<RegistryResponse | null>;
  /** Raw request for flows that must see 401 (OCI token auth); still maps 429/5xx to RetryableRegistryError. */
  raw(request: RegistryRequest): Promise<{ status: number; headers: Headers; body: string }>;
}

export class RegistryError extends Error {
  constructor(
    message: string,
    readonly ecosystem: Ecosystem | null = null,
    /** The HTTP status that caused it, when one did. */
    readonly status: number | null = null,
  ) {
    super(message);
    this.name = 'RegistryError';
  }
}

/** 429, 5xx, timeouts and network failures: try again after `retryAfterSeconds` (from Retry-After when sent). */
export class RetryableRegistryError extends RegistryError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
    status: number | null = null,
    ecosystem: Ecosystem | null = null,
  ) {
    super(message, ecosystem, status);
    this.name = 'RetryableRegistryError';
  }
}

/** The `registries` settings group of src/config.ts: one base URL per ecosystem (null → disabled). */
export interface RegistriesSettings {
  baseUrls: Record<Ecosystem, string | null>;
  /** Per-request timeout. */
  timeoutMs: number;
  /** Largest response body read; larger answers are a RegistryError. */
  maxResponseBytes: number;
  /** Entries of the in-memory response cache (0 disables it). */
  cacheEntries: number;
  /** Upper bound for per-version detail requests of one package. */
  maxVersionDetails: number;
  /** npm download-counts API base (unset: npm packages have no popularity). */
  npmDownloadsUrl?: string | null;
}
