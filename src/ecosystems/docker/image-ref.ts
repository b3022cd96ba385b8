import { buildPurl } from '../purl';
import type { DependencyScope, ExtractedDependency } from '../types';

/**
 * Image references (`[host[:port]/]path[:tag][@digest]`) as the distribution/reference grammar
 * defines them, and their identity as a dependency.
 *
 * Names are kept in Docker's "familiar" form, the one `docker` prints: Docker Hub's host is
 * dropped and official images lose `library/` (`docker.io/library/node` → `node`,
 * `registry.docker.com/library/ruby` → `ruby`, `bitnami/redis` stays), other registries keep
 * their host (`quay.io/prometheus/busybox`). So the same image written two ways is one name.
 */

/** Hosts that are Docker Hub under another name. */
const HUB_HOSTS = new Set([
  'docker.io',
  'index.docker.io',
  'registry-1.docker.io',
  'registry.hub.docker.com',
  'registry.docker.com',
]);

const COMPONENT = /^[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*$/;
const HOST = /^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:]+\])(?::\d{1,5})?$/;
const TAG = /^\w[\w.-]{0,127}$/;
const DIGEST = /^[a-z0-9]+(?:[+._-][a-z0-9]+)*:[a-zA-Z0-9=_-]{32,}$/;

export interface ImageRef {
  /** Registry host when it is not Docker Hub, else null. */
  host: string | null;
  /** Repository path on the registry, without Docker Hub's `library/`. */
  path: string;
  tag: string | null;
  digest: string | null;
}

/** Parses an image reference; null when it is not one. Names are lowercased (Docker requires it). */
export function parseImageRef(text: string): ImageRef | null {
  const ref = text.trim();
  if (ref === '' || ref.length > 512 || /\s/.test(ref)) return null;
  let rest = ref;
  let digest: string | null = null;
  const at = rest.indexOf('@');
  if (at >= 0) {
    digest = rest.slice(at + 1);
    rest = rest.slice(0, at);
    if (!DIGEST.test(digest)) return null;
  }
  let tag: string | null = null;
  const colon = rest.lastIndexOf(':');
  if (colon > rest.lastIndexOf('/')) {
    tag = rest.slice(colon + 1);
    rest = rest.slice(0, colon);
    if (!TAG.test(tag)) return null;
  }
  const parts = rest.toLowerCase().split('/');
  let host: string | null = null;
  const first = parts[0]!;
  if (parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost')) {
    host = first;
    parts.shift();
    if (!HOST.test(host)) return null;
  }
  if (parts.length === 0 || !parts.every((p) => COMPONENT.test(p))) return null;
  if (host !== null && HUB_HOSTS.has(host)) host = null;
  if (host === null && parts.length === 2 && parts[0] === 'library') parts.shift();
  return { host, path: parts.join('/'), tag, digest };
}

/**
 * Parses a reference after variable substitution, where `unknown` marks what no variable
 * supplied: an unknown tag or digest is dropped (the image is still known, just less pinned);
 * an unknown name gives `'unknown-name'`.
 */
export function parseSubstitutedRef(
  text: string,
  unknown: string,
): ImageRef | 'unknown-name' | null {
  if (!text.includes(unknown)) return parseImageRef(text);
  const at = text.indexOf('@');
  const digest = at >= 0 ? text.slice(at) : '';
  const nameAndTag = at >= 0 ? text.slice(0, at) : text;
  const colon = nameAndTag.lastIndexOf(':');
  const hasTag = colon > nameAndTag.lastIndexOf('/');
  const name = hasTag ? nameAndTag.slice(0, colon) : nameAndTag;
  const tag = hasTag ? nameAndTag.slice(colon) : '';
  if (name.includes(unknown)) return 'unknown-name';
  return parseImageRef(
    name + (tag.includes(unknown) ? '' : tag) + (digest.includes(unknown) ? '' : digest),
  );
}

export function familiarName(ref: ImageRef): string {
  return ref.host === null ? ref.path : `${ref.host}/${ref.path}`;
}

/** Familiar name of an image written any way; text that is no image name is only trimmed and lowercased. */
export function normaliseImageName(name: string): string {
  const ref = parseImageRef(name);
  return ref === null ? name.trim().toLowerCase() : familiarName(ref);
}

/**
 * The dependency for one image use. A digest pins the image whatever the tag says; a tag pins
 * it loosely (tags move, but it is the exact pin a Dockerfile can make); `latest` or no tag
 * pins nothing. The purl follows the purl-spec docker type: the path as namespace/name,
 * the registry host as `repository_url`, the digest as `digest` when a tag is the version.
 */
export function imageDependency(
  ref: ImageRef,
  scope: DependencyScope,
  line: number | null,
): ExtractedDependency {
  const movingTag = ref.tag === null || ref.tag === 'latest';
  let version: string | null;
  if (ref.digest !== null) version = ref.tag ?? ref.digest;
  else version = movingTag ? null : ref.tag;
  const resolution = version === null ? 'unpinned' : 'resolved';
  const qualifiers: Record<string, string> = {};
  if (ref.host !== null) qualifiers.repository_url = ref.host;
  if (ref.digest !== null && version !== ref.digest) qualifiers.digest = ref.digest;
  return {
    name: familiarName(ref),
    version,
    purl: buildPurl(
      'docker',
      ref.path,
      version,
      Object.keys(qualifiers).length > 0 ? qualifiers : undefined,
    ),
    scope,
    direct: true,
    resolution,
    line,
    parents: [],
    source: { kind: 'registry' },
  };
}

export { dedupe } from '../dependency-list';
