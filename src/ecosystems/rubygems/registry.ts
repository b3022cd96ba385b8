import { joinUrl } from '../../core/http-client';
import { asArray, asObject, trimmedText } from '../../core/json-values';
import {
  assemble,
  defineClient,
  type EcosystemRegistry,
  fetchMainDocument,
  uniq,
  type VersionInput,
} from '../registry-common';
import { count, isoTime, own, parseJson } from '../registry-http';
import { RegistryError, type RegistryHttp } from '../registry-types';
import { rubygemsVersioning } from './versioning';

/**
 * RubyGems API client:
 *   - `<base>/api/v1/versions/<name>.json`: every published version (`number`, `created_at`,
 *     `prerelease`, `licenses`, `downloads_count`, `platform`) — the conditional request;
 *   - `<base>/api/v1/gems/<name>.json`: the gem (licences, `source_code_uri`, `homepage_uri`, total
 *     downloads, info);
 *   - `<base>/api/v1/gems/<name>/owners.json`: current owners (handles).
 * Yanked versions are simply absent from the versions list, so `yanked` is never true here (a
 * used version missing from the list is the caller's sign that it was yanked). RubyGems has no
 * deprecation field. A version built for several platforms is listed once.
 */

const GEM_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;

export const rubygemsRegistry: EcosystemRegistry = (info, settings) =>
  defineClient(info, settings, 'RUBYGEMS_URL', async (context, name, options) => {
    if (!GEM_NAME.test(name)) return null;
    const main = await fetchMainDocument(
      context,
      {
        url: joinUrl(context.baseUrl, `api/v1/versions/${name}.json`),
        headers: { accept: 'application/json' },
      },
      options,
    );
    if (main.state === 'answered') return main.metadata;
    const response = main.response;
    const list = parseJson(response.body, 'gem versions');
    if (!Array.isArray(list)) throw new RegistryError('unusable gem versions: not a JSON array');
    const entries = list.map(asObject).filter((x) => x !== null);
    // The plain `ruby` platform build first, so a version listed per platform keeps its facts.
    entries.sort(
      (a, b) => Number(own(a, 'platform') !== 'ruby') - Number(own(b, 'platform') !== 'ruby'),
    );
    const versions: VersionInput[] = [];
    for (const entry of entries) {
      const version = trimmedText(own(entry, 'number'), 256);
      if (version === null || !rubygemsVersioning.isValid(version)) continue;
      versions.push({
        version,
        publishedAtUtc: isoTime(own(entry, 'created_at')),
        deprecated: null,
        yanked: false,
        licence: licences(own(entry, 'licenses')),
        prerelease: own(entry, 'prerelease') === true || rubygemsVersioning.isPrerelease(version),
        downloads: count(own(entry, 'downloads_count')),
      });
    }
    const gem = await optionalJson(
      context.http,
      joinUrl(context.baseUrl, `api/v1/gems/${name}.json`),
      options.signal,
    );
    const gemObject = asObject(gem);
    const owners = await optionalJson(
      context.http,
      joinUrl(context.baseUrl, `api/v1/gems/${name}/owners.json`),
      options.signal,
    );
    const maintainers = uniq(
      asArray(owners)
        .map((o) => trimmedText(own(asObject(o), 'handle'), 200))
        .filter((o): o is string => o !== null),
    );
    const meta = asObject(own(gemObject, 'metadata'));
    const total = count(own(gemObject, 'downloads'));
    return assemble(context.info, {
      name: trimmedText(own(gemObject, 'name'), 200) ?? name,
      versions,
      latest: trimmedText(own(gemObject, 'version'), 256),
      licence: licences(own(gemObject, 'licenses')),
      repositoryUrl:
        trimmedText(own(gemObject, 'source_code_uri')) ?? trimmedText(own(meta, 'source_code_uri')),
      homepage:
        trimmedText(own(gemObject, 'homepage_uri')) ?? trimmedText(own(meta, 'homepage_uri')),
      description: trimmedText(own(gemObject, 'info'), 1000),
      maintainers,
      downloads: total === null ? null : { count: total, period: 'total' },
      etag: response.etag,
      lastModified: response.lastModified,
      notes: ['yanked versions are not listed by RubyGems', 'RubyGems has no deprecation field'],
    });
  });

function licences(value: unknown): string | null {
  const list = asArray(value)
    .map((x) => trimmedText(x, 100))
    .filter((x): x is string => x !== null);
  if (list.length === 0) return null;
  return list.length === 1 ? list[0]! : `(${list.join(' OR ')})`;
}

async function optionalJson(
  http: RegistryHttp,
  url: string,
  signal: AbortSignal | undefined,
): Promise<unknown> {
  const response = await http.get({ url, headers: { accept: 'application/json' }, signal });
  if (response === null) return null;
  try {
    return parseJson(response.body, 'gem document');
  } catch {
    return null;
  }
}
