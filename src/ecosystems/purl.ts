import { createRequire } from 'node:module';
import type { PackageURL as PackageUrlClass } from 'packageurl-js';

/**
 * packageurl-js builds every purl that needs normalising or escaping. It is loaded on first use:
 * loading it creates an Intl.Collator (about 7 ms), which the offline audit of a plain npm
 * lockfile never needs.
 */
let packageUrlClass: typeof PackageUrlClass | undefined;
function PackageURL(): typeof PackageUrlClass {
  packageUrlClass ??= (
    createRequire(import.meta.url)('packageurl-js') as { PackageURL: typeof PackageUrlClass }
  ).PackageURL;
  return packageUrlClass;
}

// An npm name packageurl-js would neither lowercase nor escape, and a version it would not
// escape (`+` stays `+` in its output). purl.test.ts proves the shortcut spells every such purl
// exactly as packageurl-js does, on generated cases and on every npm dependency of the corpus.
const PLAIN_NPM_NAME = /^(?:@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*$/;
const PLAIN_VERSION = /^[0-9A-Za-z.+-]+$/;

function plainNpmPurl(name: string, version: string | null): string | null {
  if (name.length > 214 || !PLAIN_NPM_NAME.test(name)) return null;
  if (version !== null && !PLAIN_VERSION.test(version)) return null;
  const path = name.startsWith('@') ? `%40${name.slice(1)}` : name;
  return `pkg:npm/${path}${version === null ? '' : `@${version}`}`;
}

/**
 * Builds a purl for a dependency. `name` is the ecosystem-normalised name; namespaced ecosystems
 * (npm scopes, Maven groups, Go module paths, Composer vendors, Docker registries) split on the
 * last `/` (or `:` for Maven) as the purl spec says.
 */
export function buildPurl(
  type: string,
  name: string,
  version: string | null,
  qualifiers?: Record<string, string>,
): string {
  if (type === 'npm' && (!qualifiers || Object.keys(qualifiers).length === 0)) {
    const plain = plainNpmPurl(name, version);
    if (plain !== null) return plain;
  }
  return libraryPurl(type, name, version, qualifiers);
}

/** The purl as packageurl-js spells it (no shortcut). */
export function libraryPurl(
  type: string,
  name: string,
  version: string | null,
  qualifiers?: Record<string, string>,
): string {
  let namespace: string | undefined;
  let shortName = name;
  if (type === 'maven') {
    const colon = name.indexOf(':');
    if (colon > 0) {
      namespace = name.slice(0, colon);
      shortName = name.slice(colon + 1);
    }
  } else if (type !== 'pypi' && type !== 'cargo' && type !== 'gem' && type !== 'nuget') {
    const slash = name.lastIndexOf('/');
    if (slash > 0) {
      namespace = name.slice(0, slash);
      shortName = name.slice(slash + 1);
    }
  }
  const Url = PackageURL();
  return new Url(
    type,
    namespace,
    shortName,
    version ?? undefined,
    qualifiers,
    undefined,
  ).toString();
}
