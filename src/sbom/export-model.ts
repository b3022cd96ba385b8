import { createHash } from 'node:crypto';
import { PackageURL } from 'packageurl-js';
import type { Ecosystem } from '../ecosystems/types';

/** What a writer needs: the repository (the subject) and its stored dependencies. */
export interface ExportSubject {
  exportId: string;
  repositoryId: string;
  /** `owner/name` as the provider spells it. */
  repositoryName: string;
  /** Where the repository lives (web URL, else clone URL), when known. */
  repositoryUrl: string | null;
  /** The export's creation time: the document's timestamp, so a regeneration is identical. */
  createdAt: Date;
  toolName: string;
  toolVersion: string;
}

export interface ExportDependency {
  ecosystem: Ecosystem;
  name: string;
  version: string | null;
  /** As stored: carries the version only when resolved. */
  purl: string;
  direct: boolean;
  parents: string[];
  scope: string;
  /** SPDX expression when the catalogue knows it; null writes NOASSERTION / no licence. */
  licence: string | null;
}

/** One component per distinct (ecosystem, name, version): scopes and files merged. */
export interface ExportComponent extends ExportDependency {
  /** Stable key: `ecosystem/name@version`. */
  key: string;
  /** The purl with its version (parsed once: writers use it several times). */
  versionedPurl: string;
  /** purl namespace (`@scope`, Maven group) and short name. */
  group: string | null;
  shortName: string;
}

export function componentsOf(dependencies: ExportDependency[]): ExportComponent[] {
  const merged = new Map<string, ExportComponent>();
  for (const dependency of dependencies) {
    const key = `${dependency.ecosystem}/${dependency.name}@${dependency.version ?? ''}`;
    const seen = merged.get(key);
    if (!seen) {
      merged.set(key, {
        ...dependency,
        parents: [...dependency.parents],
        key,
        ...purlFacts(dependency),
      });
      continue;
    }
    seen.direct ||= dependency.direct;
    if (seen.scope !== 'runtime' && dependency.scope === 'runtime') seen.scope = 'runtime';
    for (const parent of dependency.parents) {
      if (!seen.parents.includes(parent)) seen.parents.push(parent);
    }
    seen.licence ??= dependency.licence;
  }
  // Deterministic order: the same stored state gives the same document.
  return [...merged.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The edges parent → child among components: a stored parent is a name, so it points from every
 * version of that name in the same ecosystem.
 */
export function edgesOf(components: ExportComponent[]): Map<string, string[]> {
  const byName = new Map<string, ExportComponent[]>();
  for (const component of components) {
    const key = `${component.ecosystem}/${component.name}`;
    const list = byName.get(key);
    if (list) list.push(component);
    else byName.set(key, [component]);
  }
  const children = new Map<string, string[]>();
  for (const component of components) {
    for (const parent of component.parents) {
      for (const from of byName.get(`${component.ecosystem}/${parent}`) ?? []) {
        if (from.key === component.key) continue;
        const list = children.get(from.key) ?? [];
        if (!list.includes(component.key)) list.push(component.key);
        children.set(from.key, list);
      }
    }
  }
  for (const list of children.values()) list.sort();
  return children;
}

/**
 * The purl of a dependency with its version (stored purls carry it only when resolved), and its
 * namespace (`@scope`, Maven group) and short name. Text that is no purl is kept as it is.
 */
export function purlFacts(
  dependency: ExportDependency,
): Pick<ExportComponent, 'versionedPurl' | 'group' | 'shortName'> {
  try {
    const purl = PackageURL.fromString(dependency.purl);
    const versioned =
      purl.version || !dependency.version
        ? purl
        : new PackageURL(
            purl.type,
            purl.namespace,
            purl.name,
            dependency.version,
            purl.qualifiers,
            purl.subpath,
          );
    return {
      versionedPurl: versioned.toString(),
      group: purl.namespace ?? null,
      shortName: purl.name,
    };
  } catch {
    return { versionedPurl: dependency.purl, group: null, shortName: dependency.name };
  }
}

/**
 * A name-based (version 5 layout) UUID from text: deterministic serial numbers and namespaces.
 * UUIDv7 export ids do not fit CycloneDX's serial number pattern (versions 1–5), so they are
 * hashed into this one.
 */
export function deterministicUuid(text: string): string {
  const hash = createHash('sha1').update(`driftwatch:sbom:${text}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** ISO 8601 UTC without fractions (`2026-01-02T03:04:05Z`), as SPDX writes it. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
