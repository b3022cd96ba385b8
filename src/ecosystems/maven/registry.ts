import { joinUrl } from '../../core/http-client';
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
import { isoTime } from '../registry-http';
import { RegistryError, type RegistryHttp } from '../registry-types';
import { child, children, childText, parseXml, type XmlElement } from '../shared/xml';
import { mavenVersioning } from './versioning';

/**
 * Maven repository client (a Maven 2 layout repository such as Maven Central or a mirror):
 *   - `<group path>/<artifact>/maven-metadata.xml` lists the versions (and `<release>`);
 *   - `<group path>/<artifact>/<v>/<artifact>-<v>.pom` gives licence, SCM, URL, developers and
 *     a `<relocation>` (the artifact moved: reported as deprecation with its successor).
 * A Maven repository records no release time; the POM's `Last-Modified` (the upload time on Maven
 * Central and common repository managers) is used, for the newest `maxVersionDetails` versions and
 * the versions of interest only (one request each, cached as immutable). Licences inherited from a
 * parent POM are followed up to two parents for the latest version.
 */

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,199}$/;

interface PomFacts {
  licence: string | null;
  scm: string | null;
  url: string | null;
  description: string | null;
  developers: string[];
  relocation: string | null;
  relocated: boolean;
  relocationMessage: string | null;
  parent: { group: string; artifact: string; version: string } | null;
  lastModified: string | null;
}

function artifactPath(group: string, artifact: string): string | null {
  if (!group.split('.').every((p) => SEGMENT.test(p)) || !SEGMENT.test(artifact)) return null;
  return `${group.split('.').join('/')}/${artifact}`;
}

function safeVersion(version: string): boolean {
  return SEGMENT.test(version) && !version.includes('..');
}

export const mavenRegistry: EcosystemRegistry = (info, settings) =>
  defineClient(info, settings, 'MAVEN_REPOSITORY_URL', async (context, name, options) => {
    const [group, artifact, ...rest] = name.split(':');
    if (!group || !artifact || rest.length > 0) return null;
    const base = artifactPath(group, artifact);
    if (base === null) return null;
    const main = await fetchMainDocument(
      context,
      {
        url: joinUrl(context.baseUrl, `${base}/maven-metadata.xml`),
        headers: { accept: 'application/xml, text/xml' },
      },
      options,
    );
    if (main.state === 'answered') return main.metadata;
    const response = main.response;
    const root = parseXml(response.body).root;
    if (root === null || root.name !== 'metadata') {
      throw new RegistryError('unusable maven-metadata.xml');
    }
    const versioning = child(root, 'versioning');
    const listed = versioning
      ? children(child(versioning, 'versions') ?? versioning, 'version')
          .map((v) => v.text)
          .filter((v) => v !== '' && safeVersion(v))
      : [];
    const ascending = [...new Set(listed)].sort(mavenVersioning.compare);
    const release = versioning ? childText(versioning, 'release') : null;
    const latest = release ?? (versioning ? childText(versioning, 'latest') : null);
    const details = detailVersions(
      ascending,
      context.maxVersionDetails,
      options.versionsOfInterest,
    );
    const latestVersion = latest && ascending.includes(latest) ? latest : ascending.at(-1);
    if (latestVersion) details.add(latestVersion);

    const poms = new Map<string, PomFacts>();
    await mapLimit([...details], 6, async (version) => {
      const facts = await fetchPom(
        context.http,
        context.baseUrl,
        group,
        artifact,
        version,
        options.signal,
      );
      if (facts) poms.set(version, facts);
    });

    const versions: VersionInput[] = ascending.map((version) => {
      const pom = poms.get(version);
      return {
        version,
        publishedAtUtc: isoTime(pom?.lastModified ?? null),
        deprecated: pom?.relocated ? relocationText(pom) : null,
        yanked: false,
        licence: pom?.licence ?? null,
        ...(pom ? { maintainers: pom.developers } : {}),
      };
    });
    const head = latestVersion ? poms.get(latestVersion) : undefined;
    let licence = head?.licence ?? null;
    let parent = head?.parent ?? null;
    for (let depth = 0; licence === null && parent !== null && depth < 2; depth++) {
      const facts = await fetchPom(
        context.http,
        context.baseUrl,
        parent.group,
        parent.artifact,
        parent.version,
        options.signal,
      );
      licence = facts?.licence ?? null;
      parent = facts?.parent ?? null;
    }
    const omitted = ascending.length - details.size;
    return assemble(context.info, {
      name,
      versions,
      latest: latestVersion ?? null,
      deprecated: head?.relocated ? relocationText(head) : null,
      successor: head?.relocation ?? null,
      licence,
      repositoryUrl: head?.scm ?? null,
      homepage: head?.url ?? null,
      description: head?.description ?? null,
      maintainers: head?.developers ?? [],
      etag: response.etag,
      lastModified: response.lastModified,
      notes: [
        'release times are the Last-Modified of each POM',
        ...(omitted > 0
          ? [`POM details fetched for ${details.size} of ${ascending.length} versions`]
          : []),
        'downloads are not reported',
      ],
    });
  });

function relocationText(pom: PomFacts): string {
  return pom.relocationMessage ?? `relocated to ${pom.relocation ?? 'another version'}`;
}

async function fetchPom(
  http: RegistryHttp,
  baseUrl: string,
  group: string,
  artifact: string,
  version: string,
  signal: AbortSignal | undefined,
): Promise<PomFacts | null> {
  const base = artifactPath(group, artifact);
  if (base === null || !safeVersion(version)) return null;
  const response = await http.get({
    url: joinUrl(baseUrl, `${base}/${version}/${artifact}-${version}.pom`),
    headers: { accept: 'application/xml, text/xml' },
    immutable: true,
    signal,
  });
  if (response === null) return null;
  const root = parseXml(response.body).root;
  if (root === null || root.name !== 'project') return null;
  const licences = children(child(root, 'licenses') ?? root, 'license')
    .map((l) => childText(l, 'name') ?? childText(l, 'url'))
    .filter((l): l is string => l !== null)
    .map((l) => l.slice(0, 200));
  const scm = child(root, 'scm');
  const relocation = child(child(root, 'distributionManagement') ?? root, 'relocation');
  const parentElement = child(root, 'parent');
  const developers = children(child(root, 'developers') ?? root, 'developer')
    .map((d) => childText(d, 'id') ?? childText(d, 'name') ?? childText(d, 'email'))
    .filter((d): d is string => d !== null)
    .map((d) => d.slice(0, 200));
  return {
    licence:
      licences.length === 0
        ? null
        : licences.length === 1
          ? licences[0]!
          : `(${licences.join(' OR ')})`,
    scm: scm ? cleanUrl(childText(scm, 'url') ?? connectionUrl(scm)) : null,
    url: cleanUrl(childText(root, 'url')),
    description: childText(root, 'description')?.slice(0, 1000) ?? childText(root, 'name'),
    developers: [...new Set(developers)],
    relocation: relocation ? relocationTarget(relocation, group, artifact) : null,
    relocated: relocation !== undefined,
    relocationMessage: relocation ? childText(relocation, 'message') : null,
    parent: parentElement ? parentOf(parentElement) : null,
    lastModified: response.lastModified,
  };
}

function connectionUrl(scm: XmlElement): string | null {
  const text = childText(scm, 'connection') ?? childText(scm, 'developerConnection');
  return text ? text.replace(/^scm:[a-z]+:/, '') : null;
}

/** `<relocation>` names only what changes; the rest stays as it was. A version-only move is no successor. */
function relocationTarget(relocation: XmlElement, group: string, artifact: string): string | null {
  const toGroup = childText(relocation, 'groupId') ?? group;
  const toArtifact = childText(relocation, 'artifactId') ?? artifact;
  return toGroup === group && toArtifact === artifact ? null : `${toGroup}:${toArtifact}`;
}

function parentOf(element: XmlElement): PomFacts['parent'] {
  const group = childText(element, 'groupId');
  const artifact = childText(element, 'artifactId');
  const version = childText(element, 'version');
  if (!group || !artifact || !version || !safeVersion(version)) return null;
  return { group, artifact, version };
}
