import { joinUrl } from '../../core/http-client';
import { asObject, trimmedText } from '../../core/json-values';
import {
  assemble,
  cleanUrl,
  defineClient,
  detailVersions,
  type EcosystemRegistry,
  fetchMainDocument,
  mapLimit,
  type VersionInput,
} from '../registry-common';
import { isoTime, own, parseJsonObject } from '../registry-http';
import type { RegistryHttp } from '../registry-types';
import { parseGoMod } from './extract-go-mod';
import { goVersioning, isPseudoVersion } from './versioning';

/**
 * Go module proxy client (GOPROXY protocol):
 *   - `<module>/@v/list`: the tagged versions, one per line (conditional request on this one);
 *   - `<module>/@v/<v>.info`: `{Version, Time, Origin}` per version — fetched for the newest
 *     `maxVersionDetails` versions and the versions of interest (immutable, cached);
 *   - `<module>/@latest`: when the list is empty (only pseudo-versions exist);
 *   - `<module>/@v/<latest>.mod`: `// Deprecated:` on the module line and `retract` directives.
 * Module paths and versions are case-encoded (`!x` for an upper-case letter). The proxy reports
 * no licence, maintainers or downloads.
 */

/** x/mod/module.EscapePath: every upper-case letter becomes `!` + its lower case. */
export function escapeModulePath(path: string): string {
  return path.replace(/[A-Z]/g, (c) => `!${c.toLowerCase()}`);
}

const MODULE_PATH = /^[A-Za-z0-9][A-Za-z0-9._~+-]*(?:\/[A-Za-z0-9._~+-]+)*$/;

export const goRegistry: EcosystemRegistry = (info, settings) =>
  defineClient(info, settings, 'GOPROXY_URL', async (context, name, options) => {
    if (!MODULE_PATH.test(name) || name.split('/').some((p) => p === '.' || p === '..'))
      return null;
    const modBase = joinUrl(context.baseUrl, escapeModulePath(name));
    const main = await fetchMainDocument(
      context,
      {
        url: `${modBase}/@v/list`,
      },
      options,
    );
    if (main.state === 'answered') return main.metadata;
    const listed = main.response;
    let tags = listed.body
      .split('\n')
      .map((line) => line.trim())
      .filter((v) => v !== '' && v.length <= 256 && goVersioning.isValid(v));
    const infos = new Map<string, Record<string, unknown>>();
    let latestPointer: string | null = null;
    if (tags.length === 0) {
      const latest = await getJson(context.http, `${modBase}/@latest`, false, options.signal);
      const version = trimmedText(own(latest, 'Version'), 256);
      if (latest === null || version === null || !goVersioning.isValid(version)) return null;
      tags = [version];
      infos.set(version, latest);
      latestPointer = version;
    }
    const ascending = [...new Set(tags)].sort(goVersioning.compare);
    const details = detailVersions(
      ascending,
      context.maxVersionDetails,
      options.versionsOfInterest,
    );
    await mapLimit(
      [...details].filter((v) => !infos.has(v)),
      6,
      async (version) => {
        const info = await getJson(
          context.http,
          `${modBase}/@v/${escapeModulePath(version)}.info`,
          true,
          options.signal,
        );
        if (info !== null) infos.set(version, info);
      },
    );
    const newestRelease =
      [...ascending].reverse().find((v) => !goVersioning.isPrerelease(v)) ?? ascending.at(-1)!;
    latestPointer ??= newestRelease;
    const goMod = await context.http.get({
      url: `${modBase}/@v/${escapeModulePath(latestPointer)}.mod`,
      immutable: true,
      signal: options.signal,
    });
    const mod = goMod === null ? null : readGoMod(goMod.body);
    const retracted = mod?.retractions ?? [];
    const versions: VersionInput[] = ascending.map((version) => {
      const retraction = retracted.find((r) => inInterval(version, r));
      return {
        version,
        publishedAtUtc: isoTime(own(infos.get(version) ?? null, 'Time')),
        deprecated: null,
        yanked: retraction !== undefined,
        yankedReason: retraction?.rationale ?? null,
        licence: null,
        prerelease: goVersioning.isPrerelease(version) || isPseudoVersion(version),
      };
    });
    const origin = asObject(own(infos.get(latestPointer) ?? null, 'Origin'));
    const omitted = ascending.length - details.size;
    return assemble(context.info, {
      name,
      versions,
      latest: latestPointer,
      deprecated: mod?.deprecated ?? null,
      repositoryUrl: cleanUrl(trimmedText(own(origin, 'URL'))),
      etag: listed.etag,
      lastModified: listed.lastModified,
      notes: [
        'the module proxy reports no licence, maintainers or downloads',
        ...(omitted > 0
          ? [`release times fetched for ${details.size} of ${ascending.length} versions`]
          : []),
      ],
    });
  });

async function getJson(
  http: RegistryHttp,
  url: string,
  immutable: boolean,
  signal: AbortSignal | undefined,
): Promise<Record<string, unknown> | null> {
  const response = await http.get({ url, immutable, signal });
  if (response === null) return null;
  try {
    return parseJsonObject(response.body, 'module info');
  } catch {
    return null; // One bad .info costs that version its time, not the whole module.
  }
}

interface Retraction {
  low: string;
  high: string;
  rationale: string | null;
}

/** The module's deprecation (`// Deprecated:` paragraph above or beside `module`) and retractions. */
export function readGoMod(text: string): { deprecated: string | null; retractions: Retraction[] } {
  const parsed = parseGoMod(text.slice(0, 1_000_000));
  const rows = text.slice(0, 1_000_000).split('\n');
  let deprecated: string | null = null;
  const moduleIndex = rows.findIndex((row) => /^\s*module[\s(]/.test(row));
  if (moduleIndex >= 0) {
    const comments: string[] = [];
    for (let i = moduleIndex - 1; i >= 0 && /^\s*\/\//.test(rows[i]!); i--) {
      comments.unshift(rows[i]!.replace(/^\s*\/\/\s?/, ''));
    }
    const trailing = /\/\/\s?(.*)$/.exec(rows[moduleIndex]!);
    if (trailing) comments.push(trailing[1]!);
    // Deprecated: starts a paragraph (x/mod/modfile.parseDeprecation) and runs to its end.
    const paragraphs = comments.join('\n').split(/\n\s*\n/);
    for (const paragraph of paragraphs) {
      const match = /^Deprecated:\s*([\s\S]*)$/.exec(paragraph.trim());
      if (match) {
        deprecated = match[1]!.replace(/\s+/g, ' ').trim().slice(0, 1000) || 'deprecated';
        break;
      }
    }
  }
  const retractions: Retraction[] = [];
  for (const line of parsed.lines) {
    if (line.verb !== 'retract') continue;
    const args = line.args.filter((a) => a !== ',');
    const rationale = line.comment ? line.comment.slice(0, 1000) : null;
    if (args.length === 1 && goVersioning.isValid(args[0]!)) {
      retractions.push({ low: args[0]!, high: args[0]!, rationale });
    } else if (args.length === 4 && args[0] === '[' && args[3] === ']') {
      const [low, high] = [args[1]!, args[2]!];
      if (goVersioning.isValid(low) && goVersioning.isValid(high)) {
        retractions.push({ low, high, rationale });
      }
    }
  }
  return { deprecated, retractions };
}

function inInterval(version: string, retraction: Retraction): boolean {
  return (
    goVersioning.compare(version, retraction.low) >= 0 &&
    goVersioning.compare(version, retraction.high) <= 0
  );
}
