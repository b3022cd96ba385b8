import { PackageURL } from 'packageurl-js';
import { normaliseImageName, parseImageRef } from '../ecosystems/docker/image-ref';
import { ecosystems } from '../ecosystems/ecosystem-list';
import { buildPurl } from '../ecosystems/purl';
import type { EcosystemModule, Resolution } from '../ecosystems/types';

export interface MappedPackage {
  ecosystem: EcosystemModule;
  /** Normalised the ecosystem's way, as extractors store it. */
  name: string;
  version: string | null;
  resolution: Resolution;
  /** Rebuilt from the normalised parts: the version only when resolved, no qualifiers. */
  purl: string;
}

export type PurlMapping =
  | { ok: true; value: MappedPackage }
  | { ok: false; reason: 'invalid'; message: string }
  | { ok: false; reason: 'unsupported'; type: string };

const byPurlType = new Map(ecosystems.map((e) => [e.purlType, e]));

/** The name as the ecosystem's extractors write it, from a purl's namespace and name. */
function nameOf(ecosystem: EcosystemModule, purl: PackageURL): string {
  const namespace = purl.namespace ?? '';
  switch (ecosystem.purlType) {
    case 'maven':
      return namespace ? `${namespace}:${purl.name}` : purl.name;
    case 'docker': {
      // purl-spec docker: namespace/name is the path, the registry host is `repository_url`.
      const path = namespace ? `${namespace}/${purl.name}` : purl.name;
      const host = purl.qualifiers?.repository_url
        ?.replace(/^[a-z]+:\/\//i, '')
        .replace(/\/+$/, '');
      return normaliseImageName(host ? `${host}/${path}` : path);
    }
    case 'pypi':
    case 'cargo':
    case 'gem':
    case 'nuget':
      return purl.name;
    default:
      return namespace ? `${namespace}/${purl.name}` : purl.name;
  }
}

/**
 * SBOM versions are what was found, so a bare version is exact even where a manifest would read
 * it as a range (Cargo's `1.0` is `^1.0`): only range syntax makes a range (`^4.17.0`, `>=1,<2`,
 * `[1.0,2.0)`, `4.*`, `1.x`, `1.2 - 1.4`).
 */
export function looksLikeRange(version: string): boolean {
  return /[\^~<>=*|,[\]()\s]/.test(version) || /(^|\.)[xX](\.|$)/.test(version);
}

/** The purl the extractors would write (Docker: the path, and the host as `repository_url`). */
function rebuild(ecosystem: EcosystemModule, name: string, version: string | null): string {
  if (ecosystem.purlType !== 'docker') return buildPurl(ecosystem.purlType, name, version);
  const ref = parseImageRef(name);
  if (!ref) return buildPurl('docker', name, version);
  return buildPurl(
    'docker',
    ref.path,
    version,
    ref.host !== null ? { repository_url: ref.host } : undefined,
  );
}

/**
 * Maps a purl (and the component's own version when the purl has none) to one of the supported
 * ecosystems. Unknown types (`deb`, `apk`, `github`, `generic`, ...) are `unsupported`; text that
 * is no purl is `invalid`. Never throws.
 */
export function mapPurl(text: string, fallbackVersion: string | null): PurlMapping {
  let purl: PackageURL;
  try {
    purl = PackageURL.fromString(text);
  } catch (error) {
    return { ok: false, reason: 'invalid', message: (error as Error).message.slice(0, 200) };
  }
  const ecosystem = byPurlType.get(purl.type.toLowerCase());
  if (!ecosystem) return { ok: false, reason: 'unsupported', type: purl.type.toLowerCase() };
  let name: string;
  try {
    name = ecosystem.normaliseName(nameOf(ecosystem, purl));
  } catch {
    return { ok: false, reason: 'invalid', message: 'the name cannot be normalised' };
  }
  if (name === '') return { ok: false, reason: 'invalid', message: 'the name is empty' };
  let version = (purl.version ?? fallbackVersion ?? '').trim() || null;
  // As the Docker extractors say: `latest` pins nothing.
  if (ecosystem.purlType === 'docker' && version === 'latest') version = null;
  let resolution: Resolution = 'unpinned';
  if (version !== null) resolution = looksLikeRange(version) ? 'declared' : 'resolved';
  let rebuilt: string;
  try {
    rebuilt = rebuild(ecosystem, name, resolution === 'resolved' ? version : null);
  } catch {
    return { ok: false, reason: 'invalid', message: 'the purl cannot be rebuilt' };
  }
  return { ok: true, value: { ecosystem, name, version, resolution, purl: rebuilt } };
}
