import { buildPurl } from './purl';
import {
  type FetchPackageOptions,
  type MaintainerChange,
  type PackageMetadata,
  type PackageVersionMetadata,
  type RegistryClient,
  type RegistryClientSettings,
  RegistryError,
  type RegistryHttp,
  type RegistryRequest,
  type RegistryResponse,
  type RegistryStatus,
  RetryableRegistryError,
} from './registry-types';
import type { EcosystemModule } from './types';

/**
 * What every registry client shares: the enabled/disabled status from its base URL, error
 * wrapping (a client only ever throws RegistryError), and assembling the normalised
 * PackageMetadata (ordering, pre-releases, latest stable, maintainer changes).
 */

/** What a registry client needs of its ecosystem: declared once, in the ecosystem's index.ts. */
export type EcosystemInfo = Pick<
  EcosystemModule,
  'id' | 'purlType' | 'versioning' | 'normaliseName'
>;

/**
 * A registry client of one ecosystem, given that ecosystem (its index.ts passes its own module)
 * and the shared settings: `registry: (settings) => npmRegistry(npm, settings)`.
 */
export type EcosystemRegistry = (
  info: EcosystemInfo,
  settings: RegistryClientSettings,
) => RegistryClient;

export interface ClientContext {
  info: EcosystemInfo;
  baseUrl: string;
  http: RegistryHttp;
  maxVersionDetails: number;
}

/** Hard ceiling on versions kept per package (the newest), whatever a registry lists. */
export const MAX_VERSIONS = 10_000;
/** Versions read at most before sorting, to bound the work on a hostile listing. */
const MAX_VERSIONS_READ = 100_000;

export function defineClient(
  info: EcosystemInfo,
  settings: RegistryClientSettings,
  setting: string,
  fetchPackage: (
    context: ClientContext,
    name: string,
    options: FetchPackageOptions,
  ) => Promise<PackageMetadata | null>,
): RegistryClient {
  const status = statusOf(settings.baseUrl, setting);
  return {
    ecosystem: info.id,
    status,
    async fetchPackage(rawName, options = {}) {
      if (status.state === 'disabled') throw new RegistryError(status.reason, info.id);
      const name = info.normaliseName(rawName);
      if (name === '' || name.length > 512) return null;
      const context: ClientContext = {
        info,
        baseUrl: status.baseUrl,
        http: settings.http,
        maxVersionDetails: settings.maxVersionDetails,
      };
      try {
        return await fetchPackage(context, name, options);
      } catch (error) {
        if (error instanceof RetryableRegistryError) {
          throw new RetryableRegistryError(
            `${info.id} registry: ${error.message}`,
            error.retryAfterSeconds,
            error.status,
            info.id,
          );
        }
        if (error instanceof RegistryError) {
          throw new RegistryError(`${info.id} registry: ${error.message}`, info.id, error.status);
        }
        // A parser bug on hostile input must not escape as anything but a RegistryError.
        const message = error instanceof Error ? error.message : String(error);
        throw new RegistryError(`${info.id} registry: unusable answer (${message})`, info.id);
      }
    },
  };
}

function statusOf(baseUrl: string | null, setting: string): RegistryStatus {
  if (baseUrl === null || baseUrl.trim() === '') {
    return { state: 'disabled', reason: `no base URL configured (set ${setting})` };
  }
  try {
    const url = new URL(baseUrl);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { state: 'disabled', reason: `${setting} must be an http(s) URL` };
    }
  } catch {
    return { state: 'disabled', reason: `${setting} is not a valid URL` };
  }
  return { state: 'enabled', baseUrl: baseUrl.replace(/\/+$/, '') };
}

/** `previous` revalidated by a 304: same content, new fetch time. */
export function revalidated(previous: PackageMetadata, now = new Date()): PackageMetadata {
  return { ...previous, fetchedAtUtc: now.toISOString(), notModified: true };
}

/**
 * A package's main document (packument, version list, registration index, ...) as a client
 * reads it: `answered` when the request already settles the result (404/410 → null; a 304 to the
 * validators of `options.previous` → that answer revalidated), else the fresh response to read.
 */
export type MainDocument =
  | { state: 'answered'; metadata: PackageMetadata | null }
  | { state: 'fresh'; response: RegistryResponse };

/**
 * The one conditional request of every registry client: asks for the main document with the
 * previous answer's ETag / Last-Modified (If-None-Match / If-Modified-Since, set by the HTTP
 * layer), so an unchanged package costs a 304 and no parsing.
 */
export async function fetchMainDocument(
  context: ClientContext,
  request: Omit<RegistryRequest, 'etag' | 'lastModified' | 'signal'>,
  options: FetchPackageOptions,
): Promise<MainDocument> {
  const previous = options.previous ?? null;
  const response = await context.http.get({
    ...request,
    etag: previous?.etag,
    lastModified: previous?.lastModified,
    signal: options.signal,
  });
  if (response === null) return { state: 'answered', metadata: null };
  if (response.status === 304 && previous) {
    return { state: 'answered', metadata: revalidated(previous) };
  }
  return { state: 'fresh', response };
}

export type VersionInput = Omit<PackageVersionMetadata, 'prerelease'> & { prerelease?: boolean };

export interface AssembleInput {
  name: string;
  versions: VersionInput[];
  /** The registry's own latest pointer, when it has one. */
  latest?: string | null;
  deprecated?: string | null;
  successor?: string | null;
  licence?: string | null;
  repositoryUrl?: string | null;
  homepage?: string | null;
  description?: string | null;
  maintainers?: string[];
  downloads?: PackageMetadata['downloads'];
  etag?: string | null;
  lastModified?: string | null;
  notes?: string[];
  purlQualifiers?: Record<string, string>;
}

export function assemble(info: EcosystemInfo, input: AssembleInput): PackageMetadata {
  const v = info.versioning;
  const seen = new Set<string>();
  const versions: PackageVersionMetadata[] = [];
  for (const entry of input.versions) {
    if (entry.version === '' || entry.version.length > 256 || seen.has(entry.version)) continue;
    seen.add(entry.version);
    versions.push({ ...entry, prerelease: entry.prerelease ?? v.isPrerelease(entry.version) });
    if (versions.length >= MAX_VERSIONS_READ) break;
  }
  versions.sort((a, b) => v.compare(a.version, b.version));
  // Past the ceiling the newest versions are the ones worth keeping.
  if (versions.length > MAX_VERSIONS) {
    for (const dropped of versions.splice(0, versions.length - MAX_VERSIONS)) {
      seen.delete(dropped.version);
    }
  }

  const latestStable = pickLatestStable(versions);
  const latest =
    input.latest && seen.has(input.latest) ? input.latest : (versions.at(-1)?.version ?? null);
  const latestEntry = versions.find((x) => x.version === (latestStable ?? latest));
  const everyDeprecated = versions.length > 0 && versions.every((x) => x.deprecated !== null);
  const deprecated =
    input.deprecated ?? (everyDeprecated ? (latestEntry?.deprecated ?? null) : null);
  const maintainers = uniq(input.maintainers ?? latestEntry?.maintainers ?? []);

  let purl: string;
  try {
    purl = buildPurl(info.purlType, input.name, null, input.purlQualifiers);
  } catch {
    throw new RegistryError(`cannot build a package URL for ${JSON.stringify(input.name)}`);
  }
  return {
    ecosystem: info.id,
    name: input.name,
    purl,
    versions,
    latestStable,
    latest,
    deprecated,
    successor: input.successor ?? (deprecated ? successorFromMessage(deprecated) : null),
    licence: input.licence ?? latestEntry?.licence ?? null,
    repositoryUrl: cleanUrl(input.repositoryUrl),
    homepage: cleanUrl(input.homepage),
    description: input.description ?? null,
    maintainers,
    maintainerChanges: maintainerChanges(versions),
    downloads: input.downloads ?? null,
    fetchedAtUtc: new Date().toISOString(),
    etag: input.etag ?? null,
    lastModified: input.lastModified ?? null,
    notModified: false,
    notes: input.notes ?? [],
  };
}

/**
 * Newest stable release: not a pre-release, not yanked. A deprecated release still counts (the
 * newest release of a deprecated package is deprecated too; drift is measured against it).
 */
function pickLatestStable(ascending: PackageVersionMetadata[]): string | null {
  for (let i = ascending.length - 1; i >= 0; i--) {
    const entry = ascending[i]!;
    if (!entry.prerelease && !entry.yanked) return entry.version;
  }
  return null;
}

/**
 * Changes of the maintainer set between consecutive releases that record one. Releases are taken
 * in publication order when every one of them has a time (a backport to an old line is then
 * compared with what was published just before it), else in version order.
 */
export function maintainerChanges(ascending: PackageVersionMetadata[]): MaintainerChange[] {
  const withSets = ascending.filter((x) => x.maintainers !== undefined);
  if (withSets.every((x) => x.publishedAtUtc !== null)) {
    withSets.sort((a, b) =>
      a.publishedAtUtc! < b.publishedAtUtc! ? -1 : a.publishedAtUtc! > b.publishedAtUtc! ? 1 : 0,
    );
  }
  const changes: MaintainerChange[] = [];
  for (let i = 1; i < withSets.length; i++) {
    const before = new Set(withSets[i - 1]!.maintainers);
    const after = new Set(withSets[i]!.maintainers);
    const added = [...after].filter((m) => !before.has(m)).sort();
    const removed = [...before].filter((m) => !after.has(m)).sort();
    if (added.length === 0 && removed.length === 0) continue;
    changes.push({
      version: withSets[i]!.version,
      previousVersion: withSets[i - 1]!.version,
      added,
      removed,
    });
  }
  return changes;
}

/** A name: npm scopes, Go/Composer paths, Maven `group:artifact`, dotted NuGet ids; never a call like `padStart()`. */
const NAME = String.raw`(@?[A-Za-z0-9][\w.-]*(?:[/:][\w.-]+)*)`;
const QUOTE = '[`\'"]?';
const SUCCESSOR_PATTERNS = [
  new RegExp(
    String.raw`\b(?:use|try|switch to|migrate to|install)\s+${QUOTE}${NAME}${QUOTE}\s+instead\b`,
    'i',
  ),
  new RegExp(
    String.raw`\b(?:please use|use|moved to|renamed to|replaced by|superseded by|succeeded by|in favou?r of|migrate to|switch to)\s+${QUOTE}${NAME}(?![\w.(/:-])`,
    'i',
  ),
];
const NOT_A_NAME = new Set([
  'the',
  'a',
  'an',
  'this',
  'it',
  'version',
  'latest',
  'newer',
  'new',
  'v',
]);

/** A successor named in a free-text deprecation message ("use X instead", "moved to X"), or null. */
export function successorFromMessage(message: string): string | null {
  const text = message.slice(0, 1000);
  for (const pattern of SUCCESSOR_PATTERNS) {
    const match = pattern.exec(text);
    const name = match?.[1]?.replace(/[.,;:]+$/, '');
    if (name && !NOT_A_NAME.has(name.toLowerCase()) && !/^\d/.test(name)) return name;
  }
  return null;
}

/** Repository URLs as people write them (`git+https://...git`, `git@host:o/r.git`) → https. */
export function cleanUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  let text = value.trim();
  if (text === '' || text.length > 2000) return null;
  const scp = /^git@([^:/\s]+):(.+)$/.exec(text);
  if (scp) text = `https://${scp[1]}/${scp[2]}`;
  text = text
    .replace(/^git\+/, '')
    .replace(/^git:\/\//, 'https://')
    .replace(/^ssh:\/\/git@/, 'https://');
  try {
    const url = new URL(text);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url
      .toString()
      .replace(/\.git$/, '')
      .replace(/\/$/, '');
  } catch {
    return null;
  }
}

export function uniq(values: Iterable<string>): string[] {
  return [...new Set(values)];
}

/** Runs `fn` over items with at most `limit` in flight, keeping order. */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await fn(items[index]!);
    }
  });
  await Promise.all(workers);
  return results;
}

/** The versions that get per-version detail requests: those of interest plus the newest ones. */
export function detailVersions(
  ascending: readonly string[],
  limit: number,
  ofInterest: readonly string[] = [],
): Set<string> {
  const known = new Set(ascending);
  const chosen = new Set(ofInterest.filter((x) => known.has(x)));
  for (let i = ascending.length - 1, added = 0; i >= 0 && added < limit; i--, added++) {
    chosen.add(ascending[i]!);
  }
  return chosen;
}
