import { joinUrl } from '../../core/http-client';
import { asObject, trimmedText } from '../../core/json-values';
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
import { type RegistryHttp, RetryableRegistryError } from '../registry-types';
import { npmVersioning } from './versioning';

/**
 * npm registry client: one request for the full packument (`GET <base>/<name>`, scoped names
 * as `@scope%2fname`). The abbreviated form (`application/vnd.npm.install-v1+json`) lacks `time`,
 * per-version maintainers and `_npmUser`, so the full document is asked for. The base URL is the
 * one npm itself uses (`npm_config_registry`). Download counts live on a separate service,
 * read when NPM_DOWNLOADS_URL is set.
 */

const INSTALL_SCRIPTS = ['preinstall', 'install', 'postinstall'] as const;

export function packumentPath(name: string): string {
  return name.startsWith('@') ? `@${encodeURIComponent(name.slice(1))}` : encodeURIComponent(name);
}

export const npmRegistry: EcosystemRegistry = (info, settings) =>
  defineClient(info, settings, 'NPM_REGISTRY_URL', async (context, name, options) => {
    const main = await fetchMainDocument(
      context,
      {
        url: joinUrl(context.baseUrl, packumentPath(name)),
        headers: { accept: 'application/json' },
      },
      options,
    );
    if (main.state === 'answered') return main.metadata;
    const response = main.response;
    const doc = parseJsonObject(response.body, 'npm packument');
    const times = asObject(own(doc, 'time'));
    const versionsDoc = asObject(own(doc, 'versions')) ?? {};
    const versions: VersionInput[] = [];
    for (const [version, raw] of Object.entries(versionsDoc)) {
      const manifest = asObject(raw);
      if (manifest === null || !npmVersioning.isValid(version)) continue;
      const scripts = asObject(own(manifest, 'scripts'));
      const installScripts: string[] = INSTALL_SCRIPTS.filter(
        (s) => typeof own(scripts, s) === 'string',
      );
      // npm runs `node-gyp rebuild` as the install script when a binding.gyp ships (gypfile).
      if (own(manifest, 'gypfile') === true && !installScripts.includes('install')) {
        installScripts.push('install');
      }
      const deprecatedRaw = own(manifest, 'deprecated');
      versions.push({
        version,
        publishedAtUtc: isoTime(own(times, version)),
        // `npm deprecate pkg ""` un-deprecates: an empty message means not deprecated.
        deprecated: typeof deprecatedRaw === 'string' ? trimmedText(deprecatedRaw) : null,
        yanked: false,
        licence: licenceOf(manifest),
        maintainers: people(own(manifest, 'maintainers')),
        publishedBy: trimmedText(own(asObject(own(manifest, '_npmUser')), 'name'), 214),
        hasInstallScripts: installScripts.length > 0 || own(manifest, 'hasInstallScript') === true,
        installScripts,
      });
    }
    const distTags = asObject(own(doc, 'dist-tags'));
    const latestTag = trimmedText(own(distTags, 'latest'), 256);
    const latestManifest = asObject(latestTag ? own(versionsDoc, latestTag) : undefined);
    const unpublished = asObject(own(times, 'unpublished'));
    const downloads = settings.downloadsUrl
      ? await weeklyDownloads(context.http, settings.downloadsUrl, name, options.signal)
      : null;
    const notes: string[] =
      downloads === null ? ['no download counts (NPM_DOWNLOADS_URL unset or no answer)'] : [];
    if (unpublished !== null) notes.push('every version was unpublished');
    const metadata = assemble(context.info, {
      name: trimmedText(own(doc, 'name'), 214) ?? name,
      versions,
      latest: latestTag,
      licence: latestManifest ? licenceOf(latestManifest) : licenceOf(doc),
      repositoryUrl: repositoryOf(latestManifest) ?? repositoryOf(doc),
      homepage: trimmedText(own(latestManifest, 'homepage')) ?? trimmedText(own(doc, 'homepage')),
      description: trimmedText(own(doc, 'description')),
      maintainers: uniq([...people(own(doc, 'maintainers'))]),
      downloads: downloads === null ? null : { count: downloads, period: 'last-week' },
      etag: response.etag,
      lastModified: response.lastModified,
      notes,
    });
    return metadata;
  });

/** `GET <downloads>/downloads/point/last-week/<name>` → `{downloads, start, end, package}`; optional. */
async function weeklyDownloads(
  http: RegistryHttp,
  base: string,
  name: string,
  signal: AbortSignal | undefined,
): Promise<number | null> {
  try {
    const response = await http.get({
      url: joinUrl(
        base,
        `downloads/point/last-week/${name.split('/').map(encodeURIComponent).join('/')}`,
      ),
      headers: { accept: 'application/json' },
      signal,
    });
    if (response === null) return null;
    return count(own(parseJsonObject(response.body, 'npm downloads'), 'downloads'));
  } catch (error) {
    // Counts are a bonus, but a rate limit still means "come back later".
    if (error instanceof RetryableRegistryError) throw error;
    return null;
  }
}

function licenceOf(manifest: Record<string, unknown> | null): string | null {
  const licence = own(manifest, 'license');
  if (typeof licence === 'string') return trimmedText(licence, 200);
  const typed = trimmedText(own(asObject(licence), 'type'), 200);
  if (typed) return typed;
  // Old manifests: `licenses: [{type, url}]`, joined as an SPDX OR.
  const list = own(manifest, 'licenses');
  if (!Array.isArray(list)) return null;
  const types = list
    .map((x) =>
      typeof x === 'string' ? trimmedText(x, 100) : trimmedText(own(asObject(x), 'type'), 100),
    )
    .filter((x): x is string => x !== null);
  if (types.length === 0) return null;
  return types.length === 1 ? types[0]! : `(${types.join(' OR ')})`;
}

function repositoryOf(manifest: Record<string, unknown> | null): string | null {
  const repository = own(manifest, 'repository');
  const url = typeof repository === 'string' ? repository : own(asObject(repository), 'url');
  if (typeof url !== 'string') return null;
  // Shorthand `github:owner/repo` / `owner/repo` cannot be turned into a URL without naming a host.
  return cleanUrl(url);
}

/** `[{name, email}]` or `["Name <mail>"]` → names. */
function people(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const names: string[] = [];
  for (const item of value.slice(0, 500)) {
    const name =
      typeof item === 'string'
        ? trimmedText(item.replace(/\s*[<(].*$/, ''), 214)
        : trimmedText(own(asObject(item), 'name'), 214);
    if (name) names.push(name);
  }
  return uniq(names);
}
