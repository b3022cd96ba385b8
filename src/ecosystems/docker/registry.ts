import { joinUrl } from '../../core/http-client';
import { asObject, trimmedText } from '../../core/json-values';
import {
  assemble,
  type ClientContext,
  cleanUrl,
  defineClient,
  detailVersions,
  type EcosystemRegistry,
  fetchMainDocument,
  type MainDocument,
  mapLimit,
  type VersionInput,
} from '../registry-common';
import { isoTime, own, parseJsonObject } from '../registry-http';
import { RegistryError, type RegistryHttp, type RegistryResponse } from '../registry-types';
import { parseImageRef } from './image-ref';
import { dockerVersioning, parseTag } from './versioning';

/**
 * OCI / Docker registry client (Distribution API v2) against OCI_REGISTRY_URL:
 *   - auth: `GET /v2/` once; a 401 with `WWW-Authenticate: Bearer realm=..,service=..` leads to an
 *     anonymous pull token per repository (`<realm>?service=..&scope=repository:<name>:pull`),
 *     reused until it expires. Basic-auth registries are not supported (no credentials are kept);
 *   - `GET /v2/<name>/tags/list?n=1000`, following `Link: <...>; rel="next"` (at most 20 pages);
 *   - image dates, for the newest tags and the tags of interest only (three requests a tag):
 *     the manifest (an index picks linux/amd64 or its first entry), then the config blob whose
 *     `created` is the build time and whose labels give `org.opencontainers.image.licenses` and
 *     `.source`.
 * Familiar names map as Docker does: `node` → `library/node`. Images naming another registry host
 * than the configured one are not fetched (a RegistryError says so). Registries record no
 * deprecation, yanks or maintainers.
 */

const MANIFEST_TYPES = [
  'application/vnd.oci.image.index.v1+json',
  'application/vnd.docker.distribution.manifest.list.v2+json',
  'application/vnd.oci.image.manifest.v1+json',
  'application/vnd.docker.distribution.manifest.v2+json',
].join(', ');
const MAX_TAG_PAGES = 20;
/** Each image date costs up to three requests; fewer tags are detailed than for other ecosystems. */
const MAX_IMAGE_DETAILS = 10;

interface Challenge {
  realm: string;
  service: string | null;
}

/** Parses `Bearer realm="...",service="...",scope="..."`; null for other schemes. */
export function parseBearerChallenge(header: string | null): Challenge | null {
  if (header === null || !/^\s*bearer\s/i.test(header)) return null;
  const params = new Map<string, string>();
  for (const match of header.matchAll(/([a-z_]+)\s*=\s*(?:"([^"]*)"|([^\s,]+))/gi)) {
    params.set(match[1]!.toLowerCase(), match[2] ?? match[3] ?? '');
  }
  const realm = params.get('realm');
  if (!realm) return null;
  try {
    const url = new URL(realm);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  } catch {
    return null;
  }
  return { realm, service: params.get('service') ?? null };
}

/** `</v2/x/tags/list?last=a&n=100>; rel="next"` → the absolute next URL on the same origin. */
export function nextLink(header: string | null, current: string): string | null {
  if (!header) return null;
  const match = /<([^>]+)>\s*;\s*rel="?next"?/i.exec(header);
  if (!match) return null;
  try {
    const next = new URL(match[1]!, current);
    return next.origin === new URL(current).origin ? next.toString() : null;
  } catch {
    return null;
  }
}

type Authorise = (
  http: RegistryHttp,
  baseUrl: string,
  repository: string,
  signal?: AbortSignal,
) => Promise<Record<string, string>>;

/**
 * Anonymous bearer tokens the OCI way: one ping of `/v2/` learns the challenge (none → no auth),
 * then a pull token per repository, reused until shortly before it expires.
 */
function bearerAuthoriser(): Authorise {
  let challenge: Challenge | null | undefined;
  const tokens = new Map<string, { token: string; expiresAtMs: number }>();

  return async function authorisation(
    http: RegistryHttp,
    baseUrl: string,
    repository: string,
    signal?: AbortSignal,
  ): Promise<Record<string, string>> {
    if (challenge === undefined) {
      const ping = await http.raw({ url: joinUrl(baseUrl, 'v2/'), signal });
      if (ping.status === 401) {
        challenge = parseBearerChallenge(ping.headers.get('www-authenticate'));
        if (challenge === null)
          throw new RegistryError(
            'the registry asks for credentials other than an anonymous bearer token',
          );
      } else {
        challenge = null;
      }
    }
    if (challenge === null) return {};
    const cached = tokens.get(repository);
    if (cached && cached.expiresAtMs > Date.now())
      return { authorization: `Bearer ${cached.token}` };
    const url = new URL(challenge.realm);
    if (challenge.service) url.searchParams.set('service', challenge.service);
    url.searchParams.set('scope', `repository:${repository}:pull`);
    const answer = await http.raw({
      url: url.toString(),
      headers: { accept: 'application/json' },
      signal,
    });
    if (answer.status !== 200)
      throw new RegistryError(`the token service answered ${answer.status}`, null, answer.status);
    const body = parseJsonObject(answer.body, 'registry token');
    const token =
      trimmedText(own(body, 'token'), 20_000) ?? trimmedText(own(body, 'access_token'), 20_000);
    if (token === null) throw new RegistryError('the token service gave no token');
    const lifetime = Number(own(body, 'expires_in'));
    const seconds = Number.isFinite(lifetime) && lifetime > 30 ? lifetime : 60;
    if (tokens.size > 1000) tokens.clear();
    tokens.set(repository, { token, expiresAtMs: Date.now() + (seconds - 10) * 1000 });
    return { authorization: `Bearer ${token}` };
  };
}

export const dockerRegistry: EcosystemRegistry = (info, settings) => {
  const authorisation = bearerAuthoriser();
  return defineClient(info, settings, 'OCI_REGISTRY_URL', async (context, name, options) => {
    const ref = parseImageRef(name);
    if (ref === null) return null;
    if (ref.host !== null && ref.host !== new URL(context.baseUrl).host) {
      throw new RegistryError(
        `images on ${ref.host} are not fetched: only the configured registry is`,
      );
    }
    const repository = ref.path.includes('/') ? ref.path : `library/${ref.path}`;
    const auth = await authorisation(context.http, context.baseUrl, repository, options.signal);
    const firstUrl = joinUrl(context.baseUrl, `v2/${repository}/tags/list?n=1000`);
    const main = await guarded(
      () =>
        fetchMainDocument(
          context,
          { url: firstUrl, headers: { ...auth, accept: 'application/json' } },
          options,
        ),
      DENIED_MAIN,
    );
    if (main.state === 'answered') return main.metadata;
    const first = main.response;
    const tags = await listTags(context, first, firstUrl, auth, options.signal);
    const ascending = [...tags]
      .filter((t) => dockerVersioning.isValid(t))
      .sort(dockerVersioning.compare);
    const limit = Math.min(context.maxVersionDetails, MAX_IMAGE_DETAILS);
    const details = detailVersions(ascending, limit, options.versionsOfInterest);
    const images = new Map<string, ImageFacts>();
    await mapLimit([...details], 4, async (tag) => {
      const facts = await imageFacts(
        context.http,
        context.baseUrl,
        repository,
        tag,
        auth,
        options.signal,
      );
      if (facts) images.set(tag, facts);
    });
    const versions: VersionInput[] = ascending.map((tag) => ({
      version: tag,
      publishedAtUtc: images.get(tag)?.created ?? null,
      deprecated: null,
      yanked: false,
      licence: images.get(tag)?.licence ?? null,
    }));
    const metadata = assemble(context.info, {
      name: ref.host === null ? ref.path : `${ref.host}/${ref.path}`,
      versions,
      etag: first.etag,
      lastModified: first.lastModified,
      purlQualifiers: ref.host === null ? undefined : { repository_url: ref.host },
      notes: [
        `image dates fetched for ${details.size} of ${ascending.length} version tags`,
        'tags compare only within one variant (e.g. -alpine); latestStable is the newest tag without a variant',
        ...(tags.size > ascending.length
          ? [`${tags.size - ascending.length} tags without a version (latest, ...) left out`]
          : []),
      ],
    });
    // Variants (`-alpine`, `-slim`) are separate lines: the plain release line decides latestStable.
    const plain = [...metadata.versions]
      .reverse()
      .find((v) => !v.prerelease && parseTag(v.version)?.variant === '');
    const newestFacts = plain ? images.get(plain.version) : undefined;
    return {
      ...metadata,
      latestStable: plain?.version ?? metadata.latestStable,
      latest: plain?.version ?? metadata.latest,
      licence: newestFacts?.licence ?? metadata.licence,
      repositoryUrl: newestFacts?.source ?? null,
      description: newestFacts?.description ?? null,
    };
  });
};

/** Every tag of the repository: the first page, then `Link: <…>; rel="next"` pages (bounded). */
async function listTags(
  context: ClientContext,
  first: RegistryResponse,
  firstUrl: string,
  auth: Record<string, string>,
  signal: AbortSignal | undefined,
): Promise<Set<string>> {
  const tags = new Set<string>();
  let page: RegistryResponse | null = first;
  let url = firstUrl;
  for (let pages = 0; page !== null && pages < MAX_TAG_PAGES; pages++) {
    const doc = parseJsonObject(page.body, 'tag list');
    const list = own(doc, 'tags');
    for (const tag of Array.isArray(list) ? list : []) {
      if (typeof tag === 'string' && tag.length <= 128) tags.add(tag);
    }
    const next = nextLink(page.headers.get('link'), url);
    if (next === null) break;
    url = next;
    page = await guarded(
      () =>
        context.http.get({
          url: next,
          headers: { ...auth, accept: 'application/json' },
          cache: false,
          signal,
        }),
      null,
    );
  }
  return tags;
}

/** A repository the registry will not show us is, for us, a package it does not know. */
const DENIED_MAIN: MainDocument = { state: 'answered', metadata: null };

/** 401/403 on a repository with a valid token is how registries say it does not exist (or is private). */
async function guarded<T>(request: () => Promise<T>, denied: T): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof RegistryError && (error.status === 401 || error.status === 403))
      return denied;
    throw error;
  }
}

interface ImageFacts {
  created: string | null;
  licence: string | null;
  source: string | null;
  description: string | null;
}

async function imageFacts(
  http: RegistryHttp,
  baseUrl: string,
  repository: string,
  tag: string,
  auth: Record<string, string>,
  signal?: AbortSignal,
): Promise<ImageFacts | null> {
  const headers = { ...auth, accept: MANIFEST_TYPES };
  const manifestUrl = (reference: string) =>
    joinUrl(baseUrl, `v2/${repository}/manifests/${encodeURIComponent(reference)}`);
  let manifest = await jsonOrNull(
    await guarded(() => http.get({ url: manifestUrl(tag), headers, signal }), null),
  );
  const entries = own(manifest, 'manifests');
  if (Array.isArray(entries)) {
    const items = entries.map(asObject).filter((m) => m !== null);
    const amd64 = items.find((m) => {
      const platform = asObject(own(m, 'platform'));
      return own(platform, 'os') === 'linux' && own(platform, 'architecture') === 'amd64';
    });
    const digest = trimmedText(own(amd64 ?? items[0] ?? null, 'digest'), 200);
    const created = isoTime(
      own(asObject(own(manifest, 'annotations')), 'org.opencontainers.image.created'),
    );
    if (digest === null || !/^[a-z0-9]+:[a-f0-9]{32,}$/.test(digest)) {
      return created ? { created, licence: null, source: null, description: null } : null;
    }
    manifest = await jsonOrNull(
      await guarded(
        () => http.get({ url: manifestUrl(digest), headers, immutable: true, signal }),
        null,
      ),
    );
  }
  const annotations = asObject(own(manifest, 'annotations'));
  const configDigest = trimmedText(own(asObject(own(manifest, 'config')), 'digest'), 200);
  let config: Record<string, unknown> | null = null;
  if (configDigest !== null && /^[a-z0-9]+:[a-f0-9]{32,}$/.test(configDigest)) {
    config = await jsonOrNull(
      await guarded(
        () =>
          http.get({
            url: joinUrl(baseUrl, `v2/${repository}/blobs/${configDigest}`),
            headers: auth,
            immutable: true,
            signal,
          }),
        null,
      ),
    );
  }
  const labels = asObject(own(asObject(own(config, 'config')), 'Labels'));
  const label = (key: string) =>
    trimmedText(own(annotations, key), 500) ?? trimmedText(own(labels, key), 500);
  return {
    created:
      isoTime(own(config, 'created')) ??
      isoTime(own(annotations, 'org.opencontainers.image.created')),
    licence: label('org.opencontainers.image.licenses'),
    source: cleanUrl(label('org.opencontainers.image.source')),
    description: label('org.opencontainers.image.description'),
  };
}

async function jsonOrNull(
  response: RegistryResponse | null,
): Promise<Record<string, unknown> | null> {
  if (response === null) return null;
  try {
    return parseJsonObject(response.body, 'image document');
  } catch {
    return null;
  }
}
