import { joinUrl } from '../../core/http-client';
import { asArray, asObject, trimmedText } from '../../core/json-values';
import {
  assemble,
  cleanUrl,
  defineClient,
  type EcosystemRegistry,
  fetchMainDocument,
  uniq,
  type VersionInput,
} from '../registry-common';
import { count, isoTime, own, parseJsonObject } from '../registry-http';
import { composerVersioning } from './versioning';

/**
 * Packagist (Composer v2 repository) client:
 *   - `<base>/p2/<vendor>/<package>.json`: tagged versions in Composer's minified form (each entry
 *     lists only what changed from the previous one, `__unset` removes a key), each with `time`,
 *     `license`, `source`, `homepage` and, on abandoned packages, `abandoned` (true or the
 *     replacement's name) — the conditional request;
 *   - `<base>/packages/<vendor>/<package>.json` (Packagist's package API; absent on plain Composer
 *     repositories and then skipped): maintainers and download counts.
 * Dev branches (`~dev.json`) are not fetched: drift compares tagged releases.
 */

const PACKAGE_NAME = /^[a-z0-9](?:[_.-]?[a-z0-9]+)*\/[a-z0-9](?:(?:[_.]|-{1,2})?[a-z0-9]+)*$/;

/** Composer\MetadataMinifier::expand. */
export function expandMinified(entries: unknown[]): Record<string, unknown>[] {
  const expanded: Record<string, unknown>[] = [];
  let current: Record<string, unknown> | null = null;
  for (const raw of entries.slice(0, 20_000)) {
    const entry = asObject(raw);
    if (entry === null) continue;
    const next: Record<string, unknown> = { ...(current ?? {}) };
    for (const [key, value] of Object.entries(entry)) {
      if (value === '__unset') delete next[key];
      else next[key] = value;
    }
    current = next;
    expanded.push(next);
  }
  return expanded;
}

export const composerRegistry: EcosystemRegistry = (info, settings) =>
  defineClient(info, settings, 'PACKAGIST_URL', async (context, name, options) => {
    if (!PACKAGE_NAME.test(name)) return null;
    const main = await fetchMainDocument(
      context,
      {
        url: joinUrl(context.baseUrl, `p2/${name}.json`),
        headers: { accept: 'application/json' },
      },
      options,
    );
    if (main.state === 'answered') return main.metadata;
    const response = main.response;
    const doc = parseJsonObject(response.body, 'Packagist metadata');
    const packages = asObject(own(doc, 'packages'));
    const rawList = asArray(own(packages, name));
    const entries =
      own(doc, 'minified') === 'composer/2.0'
        ? expandMinified(rawList)
        : rawList.map(asObject).filter((x) => x !== null);
    const versions: VersionInput[] = [];
    let newest: Record<string, unknown> | null = null;
    for (const entry of entries) {
      const version = trimmedText(own(entry, 'version'), 256);
      if (version === null || !composerVersioning.isValid(version)) continue;
      if (
        newest === null ||
        composerVersioning.compare(version, trimmedText(own(newest, 'version'))!) > 0
      ) {
        newest = entry;
      }
      versions.push({
        version,
        publishedAtUtc: isoTime(own(entry, 'time')),
        deprecated: abandonedText(own(entry, 'abandoned')),
        yanked: false,
        licence: licences(own(entry, 'license')),
      });
    }
    const abandoned = own(newest, 'abandoned');
    const api = await context.http.get({
      url: joinUrl(context.baseUrl, `packages/${name}.json`),
      headers: { accept: 'application/json' },
      signal: options.signal,
    });
    let maintainers: string[] = [];
    let downloads: number | null = null;
    if (api !== null) {
      try {
        const pkg = asObject(own(parseJsonObject(api.body, 'Packagist package'), 'package'));
        maintainers = uniq(
          asArray(own(pkg, 'maintainers'))
            .map((m) => trimmedText(own(asObject(m), 'name'), 200))
            .filter((m): m is string => m !== null),
        );
        downloads = count(own(asObject(own(pkg, 'downloads')), 'total'));
      } catch {
        // The package API is optional (plain Composer repositories lack it).
      }
    }
    const source = asObject(own(newest, 'source'));
    const support = asObject(own(newest, 'support'));
    return assemble(context.info, {
      name,
      versions,
      deprecated: abandonedText(abandoned),
      successor: typeof abandoned === 'string' ? trimmedText(abandoned, 200) : null,
      licence: licences(own(newest, 'license')),
      repositoryUrl: cleanUrl(
        trimmedText(own(source, 'url')) ?? trimmedText(own(support, 'source')),
      ),
      homepage: trimmedText(own(newest, 'homepage')),
      description: trimmedText(own(newest, 'description'), 1000),
      maintainers,
      downloads: downloads === null ? null : { count: downloads, period: 'total' },
      etag: response.etag,
      lastModified: response.lastModified,
      notes: ['dev branches are not fetched'],
    });
  });

function abandonedText(value: unknown): string | null {
  if (value === true) return 'abandoned';
  const replacement = trimmedText(value, 200);
  return replacement ? `abandoned; use ${replacement} instead` : null;
}

function licences(value: unknown): string | null {
  const list = asArray(value)
    .map((x) => trimmedText(x, 100))
    .filter((x): x is string => x !== null);
  if (list.length === 0) return null;
  return list.length === 1 ? list[0]! : `(${list.join(' OR ')})`;
}
