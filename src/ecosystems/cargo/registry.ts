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
import { count, isoTime, own, parseJsonObject } from '../registry-http';
import type { RegistryHttp } from '../registry-types';
import { cargoVersioning } from './versioning';

/**
 * Cargo registry client (the crates web API):
 *   - `<base>/api/v1/crates/<name>`: the crate (description, homepage, repository, downloads)
 *     and every version (`num`, `created_at`, `yanked`, `yank_message`, `license`, `downloads`,
 *     `published_by`);
 *   - `<base>/api/v1/crates/<name>/versions?per_page=100` (paged by `meta.next_page`) when the crate
 *     document carries no version list;
 *   - `<base>/api/v1/crates/<name>/owners`: current owners (users and teams).
 * The crates API has no deprecation field (the old `maintenance` badge is no longer served). Per-version
 * owner sets are not recorded, so maintainer changes come from nothing; `publishedBy` per version
 * tells who released each one.
 */

const MAX_VERSION_PAGES = 50;

/** `GET <crate>/versions?per_page=100`, following `meta.next_page` (a query string). */
async function pagedVersions(
  http: RegistryHttp,
  crateUrl: string,
  signal: AbortSignal | undefined,
): Promise<unknown[]> {
  const all: unknown[] = [];
  let url: string | null = `${crateUrl}/versions?per_page=100`;
  for (let page = 0; url !== null && page < MAX_VERSION_PAGES; page++) {
    const response = await http.get({
      url,
      headers: { accept: 'application/json' },
      cache: false,
      signal,
    });
    if (response === null) break;
    const doc = parseJsonObject(response.body, 'crate versions');
    all.push(...asArray(own(doc, 'versions')));
    const next = trimmedText(own(asObject(own(doc, 'meta')), 'next_page'), 2000);
    url = next?.startsWith('?') ? `${crateUrl}/versions${next}` : null;
  }
  return all;
}

const CRATE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export const cargoRegistry: EcosystemRegistry = (info, settings) =>
  defineClient(info, settings, 'CRATES_API_URL', async (context, name, options) => {
    if (!CRATE_NAME.test(name)) return null;
    const crateUrl = joinUrl(context.baseUrl, `api/v1/crates/${name}`);
    const main = await fetchMainDocument(
      context,
      {
        url: crateUrl,
        headers: { accept: 'application/json' },
      },
      options,
    );
    if (main.state === 'answered') return main.metadata;
    const response = main.response;
    const doc = parseJsonObject(response.body, 'crate');
    const crate = asObject(own(doc, 'crate'));
    const listed = own(doc, 'versions');
    // Answers asked for without versions (`?include=...`) or a future default: use the paged list.
    const rawVersions = Array.isArray(listed)
      ? listed
      : await pagedVersions(context.http, crateUrl, options.signal);
    const versions: VersionInput[] = [];
    for (const raw of rawVersions) {
      const entry = asObject(raw);
      const version = trimmedText(own(entry, 'num'), 256);
      if (entry === null || version === null || !cargoVersioning.isValid(version)) continue;
      const yanked = own(entry, 'yanked') === true;
      const publisher = asObject(own(entry, 'published_by'));
      versions.push({
        version,
        publishedAtUtc: isoTime(own(entry, 'created_at')),
        deprecated: null,
        yanked,
        yankedReason: yanked ? trimmedText(own(entry, 'yank_message'), 1000) : null,
        licence: trimmedText(own(entry, 'license'), 200),
        publishedBy: trimmedText(own(publisher, 'login'), 200),
        downloads: count(own(entry, 'downloads')),
      });
    }
    const owners = await context.http.get({
      url: `${crateUrl}/owners`,
      headers: { accept: 'application/json' },
      signal: options.signal,
    });
    let maintainers: string[] = [];
    if (owners !== null) {
      try {
        const users = asArray(own(parseJsonObject(owners.body, 'crate owners'), 'users'));
        maintainers = uniq(
          users
            .map((u) => trimmedText(own(asObject(u), 'login'), 200))
            .filter((u): u is string => u !== null),
        );
      } catch {
        maintainers = []; // Owners are a bonus; an unusable answer leaves them unknown.
      }
    }
    const total = count(own(crate, 'downloads'));
    return assemble(context.info, {
      name: trimmedText(own(crate, 'name'), 64) ?? name,
      versions,
      latest:
        trimmedText(own(crate, 'max_stable_version'), 256) ??
        trimmedText(own(crate, 'max_version'), 256),
      repositoryUrl: trimmedText(own(crate, 'repository')),
      homepage: trimmedText(own(crate, 'homepage')),
      description: trimmedText(own(crate, 'description'), 1000),
      maintainers,
      downloads: total === null ? null : { count: total, period: 'total' },
      etag: response.etag,
      lastModified: response.lastModified,
      notes: ['the crates registry has no deprecation field'],
    });
  });
