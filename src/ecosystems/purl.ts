import { PackageURL } from 'packageurl-js';

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
  return new PackageURL(
    type,
    namespace,
    shortName,
    version ?? undefined,
    qualifiers,
    undefined,
  ).toString();
}
