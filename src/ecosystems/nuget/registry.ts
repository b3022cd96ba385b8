import { asArray, asObject, trimmedText } from '../../core/json-values';
import {
  assemble,
  cleanUrl,
  defineClient,
  type EcosystemRegistry,
  fetchMainDocument,
  mapLimit,
  uniq,
  type VersionInput,
} from '../registry-common';
import { count, isoTime, own, parseJsonObject } from '../registry-http';
import { RegistryError, type RegistryHttp } from '../registry-types';
import { nugetVersioning } from './versioning';

/**
 * NuGet v3 client:
 *   - the service index (NUGET_SERVICE_INDEX_URL) names `RegistrationsBaseUrl` (the 3.6.0 flavour,
 *     which includes SemVer 2.0 packages, when offered) and `SearchQueryService`;
 *   - `<RegistrationsBaseUrl><id>/index.json`: the registration index — the conditional request.
 *     Pages come inline or, for large packages, by their `@id` (fetched, same origin only);
 *     each leaf's `catalogEntry` gives `published`, `listed` (unlisted = yanked; NuGet also
 *     writes 1900-01-01 as their publish time, which is dropped), `deprecation` (reasons, message,
 *     `alternatePackage` → successor), `licenseExpression`/`licenseUrl`, `projectUrl`;
 *   - `SearchQueryService?q=packageid:<id>`: owners and total downloads (optional).
 */

const PACKAGE_ID = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}$/;
const REGISTRATION_TYPES = [
  'RegistrationsBaseUrl/3.6.0',
  'RegistrationsBaseUrl/3.4.0',
  'RegistrationsBaseUrl/Versioned',
  'RegistrationsBaseUrl',
];

interface Services {
  registrations: string;
  search: string | null;
}

async function services(
  http: RegistryHttp,
  indexUrl: string,
  signal?: AbortSignal,
): Promise<Services> {
  const response = await http.get({
    url: indexUrl,
    headers: { accept: 'application/json' },
    signal,
  });
  if (response === null) throw new RegistryError('the NuGet service index was not found');
  const resources = asArray(own(parseJsonObject(response.body, 'NuGet service index'), 'resources'))
    .map(asObject)
    .filter((r) => r !== null);
  const find = (types: string[]): string | null => {
    for (const type of types) {
      const hit = resources.find(
        (r) => own(r, '@type') === type && typeof own(r, '@id') === 'string',
      );
      if (hit) return absolute(own(hit, '@id') as string, indexUrl);
    }
    return null;
  };
  const registrations = find(REGISTRATION_TYPES);
  if (registrations === null)
    throw new RegistryError('the NuGet service index lists no RegistrationsBaseUrl');
  return {
    registrations: registrations.endsWith('/') ? registrations : `${registrations}/`,
    search: find(['SearchQueryService/3.5.0', 'SearchQueryService/3.0.0-rc', 'SearchQueryService']),
  };
}

function absolute(url: string, base: string): string | null {
  try {
    const parsed = new URL(url, base);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** The service index changes rarely: one read per client per hour, not one per package. */
const SERVICE_INDEX_TTL_MS = 3_600_000;

export const nugetRegistry: EcosystemRegistry = (info, settings) => {
  let known: { services: Services; atMs: number } | null = null;
  return defineClient(info, settings, 'NUGET_SERVICE_INDEX_URL', async (context, name, options) => {
    if (!PACKAGE_ID.test(name)) return null;
    if (known === null || Date.now() - known.atMs > SERVICE_INDEX_TTL_MS) {
      known = {
        services: await services(context.http, context.baseUrl, options.signal),
        atMs: Date.now(),
      };
    }
    const { registrations, search } = known.services;
    const origin = new URL(registrations).origin;
    const indexUrl = `${registrations}${name}/index.json`;
    const main = await fetchMainDocument(
      context,
      {
        url: indexUrl,
        headers: { accept: 'application/json' },
      },
      options,
    );
    if (main.state === 'answered') return main.metadata;
    const response = main.response;
    const index = parseJsonObject(response.body, 'NuGet registration index');
    const pages = asArray(own(index, 'items'))
      .slice(0, 1000)
      .map(asObject)
      .filter((p) => p !== null);
    const leaves: Record<string, unknown>[] = [];
    await mapLimit(pages, 4, async (page) => {
      let items = own(page, 'items');
      if (!Array.isArray(items)) {
        const pageUrl = absolute(trimmedText(own(page, '@id')) ?? '', indexUrl);
        if (pageUrl === null || new URL(pageUrl).origin !== origin) return;
        const fetched = await context.http.get({
          url: pageUrl,
          headers: { accept: 'application/json' },
          signal: options.signal,
        });
        if (fetched === null) return;
        items = own(parseJsonObject(fetched.body, 'NuGet registration page'), 'items');
      }
      for (const leaf of asArray(items)) {
        const entry = asObject(own(asObject(leaf), 'catalogEntry'));
        if (entry !== null) leaves.push(entry);
      }
    });
    let displayId: string | null = null;
    const versions: VersionInput[] = [];
    const byVersion = new Map<string, Record<string, unknown>>();
    for (const entry of leaves) {
      const version = trimmedText(own(entry, 'version'), 256);
      if (version === null || !nugetVersioning.isValid(version)) continue;
      displayId ??= trimmedText(own(entry, 'id'), 100);
      byVersion.set(version, entry);
      versions.push({
        version,
        publishedAtUtc: isoTime(own(entry, 'published')),
        deprecated: deprecationText(asObject(own(entry, 'deprecation'))),
        yanked: own(entry, 'listed') === false,
        licence:
          trimmedText(own(entry, 'licenseExpression'), 200) ??
          trimmedText(own(entry, 'licenseUrl'), 500),
      });
    }
    const listed = versions.filter((v) => !v.yanked && !nugetVersioning.isPrerelease(v.version));
    listed.sort((a, b) => nugetVersioning.compare(a.version, b.version));
    const head = byVersion.get(listed.at(-1)?.version ?? versions.at(-1)?.version ?? '') ?? null;
    const deprecation = asObject(own(head, 'deprecation'));
    const extra = search ? await searchFacts(context.http, search, name, options.signal) : null;
    return assemble(context.info, {
      name,
      versions,
      deprecated: deprecationText(deprecation),
      successor: trimmedText(own(asObject(own(deprecation, 'alternatePackage')), 'id'), 100),
      repositoryUrl: cleanUrl(trimmedText(own(asObject(own(head, 'repository')), 'url'))),
      homepage: trimmedText(own(head, 'projectUrl')),
      description: trimmedText(own(head, 'description'), 1000),
      maintainers: extra?.owners ?? [],
      downloads: extra?.downloads == null ? null : { count: extra.downloads, period: 'total' },
      etag: response.etag,
      lastModified: response.lastModified,
      notes: displayId ? [`registered as ${displayId}`] : [],
    });
  });
};

function deprecationText(deprecation: Record<string, unknown> | null): string | null {
  if (deprecation === null) return null;
  const message = trimmedText(own(deprecation, 'message'), 1000);
  if (message) return message;
  const reasons = asArray(own(deprecation, 'reasons')).filter((r) => typeof r === 'string');
  return reasons.length > 0 ? `deprecated: ${reasons.join(', ')}` : 'deprecated';
}

async function searchFacts(
  http: RegistryHttp,
  search: string,
  id: string,
  signal?: AbortSignal,
): Promise<{ owners: string[]; downloads: number | null } | null> {
  const url = new URL(search);
  url.searchParams.set('q', `packageid:${id}`);
  url.searchParams.set('prerelease', 'true');
  url.searchParams.set('semVerLevel', '2.0.0');
  const response = await http.get({
    url: url.toString(),
    headers: { accept: 'application/json' },
    signal,
  });
  if (response === null) return null;
  try {
    const hit = asArray(own(parseJsonObject(response.body, 'NuGet search'), 'data'))
      .map(asObject)
      .find((d) => trimmedText(own(d, 'id'), 100)?.toLowerCase() === id);
    if (!hit) return null;
    const owners = own(hit, 'owners');
    const list = typeof owners === 'string' ? owners.split(',') : asArray(owners);
    return {
      owners: uniq(list.map((o) => trimmedText(o, 200)).filter((o): o is string => o !== null)),
      downloads: count(own(hit, 'totalDownloads')),
    };
  } catch {
    return null; // Search is a bonus; its failure leaves owners and downloads unknown.
  }
}
