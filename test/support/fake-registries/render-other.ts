import { type FakePackage, hex, sha256 } from './model';
import { type FakeResponse, json, type RenderContext } from './render-json';

/**
 * Packagist (Composer v2 metadata, minified, plus the package API), NuGet v3 (service index,
 * registration index with inline or linked pages, search) and an OCI distribution registry (token
 * auth, paged tag lists, image indexes, manifests, config blobs).
 */

// ---------------------------------------------------------------- Packagist

/** Composer\MetadataMinifier::minify: each entry keeps only what changed from the previous one. */
function minify(entries: Record<string, unknown>[]): Record<string, unknown>[] {
  let previous: Record<string, unknown> | null = null;
  return entries.map((entry) => {
    if (previous === null) {
      previous = entry;
      return entry;
    }
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(entry)) {
      if (JSON.stringify(previous[key]) !== JSON.stringify(value)) out[key] = value;
    }
    for (const key of Object.keys(previous)) if (!(key in entry)) out[key] = '__unset';
    previous = entry;
    return out;
  });
}

export function renderPackagist(ctx: RenderContext): FakeResponse | null {
  const p2 = /^\/p2\/([^/]+\/[^/]+?)(~dev)?\.json$/.exec(ctx.path);
  const api = /^\/packages\/([^/]+\/[^/]+)\.json$/.exec(ctx.path);
  const key = p2?.[1] ?? api?.[1];
  if (key === undefined) return null;
  const pkg = ctx.find(key);
  if (!pkg)
    return {
      status: 404,
      headers: { 'content-type': 'application/json' },
      body: '{"status":"error","message":"Package not found"}',
    };
  const name = pkg.name.toLowerCase();
  const entries = [...pkg.versions].reverse().map((entry) => ({
    name,
    description: pkg.description,
    keywords: ['http'],
    homepage: pkg.homepage,
    version: entry.version,
    version_normalized: `${entry.version.replace(/^v/, '').replace(/-.*$/, '')}.0${/-/.test(entry.version) ? entry.version.slice(entry.version.indexOf('-')) : ''}`,
    license: [entry.licence ?? pkg.licence],
    authors: pkg.maintainers.map((m) => ({ name: m, email: `${m}@example.org` })),
    source: { url: pkg.repositoryUrl, type: 'git', reference: hex(entry.version, 40) },
    dist: {
      url: `${ctx.base}/dist/${name}/${entry.version}.zip`,
      type: 'zip',
      reference: hex(entry.version, 40),
      shasum: '',
    },
    type: 'library',
    support: {
      issues: `${pkg.repositoryUrl.replace(/\.git$/, '')}/issues`,
      source: `${pkg.repositoryUrl.replace(/\.git$/, '')}/tree/${entry.version}`,
    },
    funding: [],
    time: entry.publishedAt,
    autoload: { 'psr-4': { 'Acme\\Component\\': '' } },
    require: { php: '>=8.1' },
    ...(pkg.deprecated ? { abandoned: pkg.successor ?? true } : {}),
  }));
  if (p2) {
    if (p2[2]) return json({ packages: { [name]: [] }, minified: 'composer/2.0' });
    return json({ packages: { [name]: minify(entries) }, minified: 'composer/2.0' });
  }
  const versions: Record<string, unknown> = {};
  for (const entry of entries) versions[entry.version] = entry;
  return json({
    package: {
      name,
      description: pkg.description,
      time: pkg.versions[0]?.publishedAt,
      maintainers: pkg.maintainers.map((m) => ({
        name: m,
        avatar_url: `https://avatars.example.org/${m}`,
      })),
      versions,
      type: 'library',
      repository: pkg.repositoryUrl,
      github_stars: 1900,
      github_watchers: 40,
      github_forks: 100,
      github_open_issues: 0,
      language: 'PHP',
      dependents: 1200,
      suggesters: 10,
      favers: 1900,
      downloads: {
        total: pkg.downloads,
        monthly: Math.floor(pkg.downloads / 50),
        daily: Math.floor(pkg.downloads / 1500),
      },
      ...(pkg.deprecated ? { abandoned: pkg.successor ?? true } : {}),
    },
  });
}

// ---------------------------------------------------------------- NuGet v3

const PAGE_SIZE = 64;
const INLINE_LIMIT = 128;

export function renderNuget(ctx: RenderContext): FakeResponse | null {
  const v3 = `${ctx.base}/v3`;
  const registrations = `${v3}/registration5-gz-semver2`;
  if (ctx.path === '/v3/index.json') {
    return json({
      version: '3.0.0',
      resources: [
        {
          '@id': `${v3}/query`,
          '@type': 'SearchQueryService',
          comment: 'Query endpoint of NuGet Search service (primary)',
        },
        {
          '@id': `${v3}/query`,
          '@type': 'SearchQueryService/3.5.0',
          comment:
            'Query endpoint of NuGet Search service (primary) that supports package type filtering',
        },
        {
          '@id': `${v3}/registration5-semver1/`,
          '@type': 'RegistrationsBaseUrl',
          comment: 'Base URL of storage where NuGet package registration info is stored',
        },
        {
          '@id': `${registrations}/`,
          '@type': 'RegistrationsBaseUrl/3.6.0',
          comment:
            'Base URL of storage where NuGet package registration info is stored in GZIP format. This base URL includes SemVer 2.0.0 packages.',
        },
        {
          '@id': `${v3}-flatcontainer/`,
          '@type': 'PackageBaseAddress/3.0.0',
          comment:
            'Base URL of where NuGet packages are stored, in the format https://host/{id-lower}/{version-lower}/{id-lower}.{version-lower}.nupkg',
        },
      ],
    });
  }
  if (ctx.path === '/v3/query') {
    const q = ctx.query.get('q') ?? '';
    const id = /^packageid:(.+)$/i.exec(q)?.[1]?.toLowerCase();
    const pkg = id ? ctx.find(id) : undefined;
    const data = pkg
      ? [
          {
            '@id': `${registrations}/${pkg.name.toLowerCase()}/index.json`,
            '@type': 'Package',
            registration: `${registrations}/${pkg.name.toLowerCase()}/index.json`,
            id: pkg.name,
            version: pkg.versions.at(-1)!.version,
            description: pkg.description,
            summary: '',
            title: pkg.name,
            iconUrl: '',
            licenseUrl: `${v3}/licenses/${pkg.name}`,
            projectUrl: pkg.homepage,
            tags: ['json'],
            authors: [pkg.maintainers[0] ?? ''],
            owners: pkg.maintainers,
            totalDownloads: pkg.downloads,
            verified: true,
            packageTypes: [{ name: 'Dependency' }],
            versions: pkg.versions.map((x) => ({
              version: x.version,
              downloads: x.downloads ?? 0,
              '@id': `${registrations}/${pkg.name.toLowerCase()}/${x.version}.json`,
            })),
            vulnerabilities: [],
          },
        ]
      : [];
    return json({
      '@context': { '@vocab': `${v3}/schema#`, '@base': `${registrations}/` },
      totalHits: data.length,
      data,
    });
  }
  const reg =
    /^\/v3\/registration5-gz-semver2\/([^/]+)\/(index|page\/([^/]+)\/([^/]+))\.json$/.exec(
      ctx.path,
    );
  if (!reg) return null;
  const pkg = ctx.find(reg[1]!);
  if (!pkg)
    return {
      status: 404,
      headers: { 'content-type': 'application/xml' },
      body: '<?xml version="1.0" encoding="utf-8"?><Error><Code>BlobNotFound</Code><Message>The specified blob does not exist.</Message></Error>',
    };
  const id = pkg.name.toLowerCase();
  const indexUrl = `${registrations}/${id}/index.json`;
  const leaf = (entry: FakePackage['versions'][number]) => ({
    '@id': `${registrations}/${id}/${entry.version}.json`,
    '@type': 'Package',
    commitId: `${hex(`${id}${entry.version}commit`, 8)}-0000-0000-0000-000000000000`,
    commitTimeStamp: entry.publishedAt,
    catalogEntry: {
      '@id': `${v3}/catalog0/data/2023.01.01.00.00.00/${id}.${entry.version}.json`,
      '@type': 'PackageDetails',
      authors: pkg.maintainers.join(', '),
      dependencyGroups: [
        {
          '@id': `${v3}/catalog0/data/${id}.${entry.version}.json#dependencygroup/.netstandard2.0`,
          '@type': 'PackageDependencyGroup',
          targetFramework: '.NETStandard2.0',
        },
      ],
      ...(entry.deprecated
        ? {
            deprecation: {
              '@id': `${v3}/catalog0/data/${id}.${entry.version}.json#deprecation`,
              reasons: entry.alternatePackage ? ['Legacy'] : ['CriticalBugs'],
              message: entry.deprecated,
              ...(entry.alternatePackage
                ? {
                    alternatePackage: {
                      '@id': `${registrations}/${entry.alternatePackage.toLowerCase()}/index.json#allversions`,
                      id: entry.alternatePackage,
                      range: '*',
                    },
                  }
                : {}),
            },
          }
        : {}),
      description: pkg.description,
      iconUrl: '',
      id: pkg.name,
      language: '',
      licenseExpression: entry.licence ?? pkg.licence,
      licenseUrl: `${v3}/licenses/${pkg.name}/${entry.version}`,
      listed: entry.yanked !== true,
      minClientVersion: '2.12',
      packageContent: `${v3}-flatcontainer/${id}/${entry.version}/${id}.${entry.version}.nupkg`,
      projectUrl: pkg.homepage,
      // Unlisted packages carry NuGet's 1900-01-01 marker as their publish time.
      published: entry.yanked ? '1900-01-01T00:00:00+00:00' : entry.publishedAt,
      repository: { url: pkg.repositoryUrl, type: 'git' },
      requireLicenseAcceptance: false,
      summary: '',
      tags: ['json'],
      title: pkg.name,
      version: entry.version,
      vulnerabilities: [],
    },
    packageContent: `${v3}-flatcontainer/${id}/${entry.version}/${id}.${entry.version}.nupkg`,
    registration: indexUrl,
  });
  const pages: Array<{ lower: string; upper: string; items: FakePackage['versions'] }> = [];
  for (let i = 0; i < pkg.versions.length; i += PAGE_SIZE) {
    const items = pkg.versions.slice(i, i + PAGE_SIZE);
    pages.push({ lower: items[0]!.version, upper: items.at(-1)!.version, items });
  }
  const pageUrl = (p: (typeof pages)[number]) =>
    `${registrations}/${id}/page/${p.lower}/${p.upper}.json`;
  const pageDoc = (p: (typeof pages)[number], inline: boolean) => ({
    '@id': inline ? `${indexUrl}#page/${p.lower}/${p.upper}` : pageUrl(p),
    '@type': 'catalog:CatalogPage',
    commitId: '00000000-0000-0000-0000-000000000000',
    commitTimeStamp: p.items.at(-1)!.publishedAt,
    count: p.items.length,
    ...(inline ? { items: p.items.map(leaf) } : {}),
    parent: indexUrl,
    lower: p.lower,
    upper: p.upper,
  });
  if (reg[2] === 'index') {
    const inline = pkg.versions.length <= INLINE_LIMIT;
    return json({
      '@id': indexUrl,
      '@type': ['catalog:CatalogRoot', 'PackageRegistration', 'catalog:Permalink'],
      commitId: '00000000-0000-0000-0000-000000000000',
      commitTimeStamp: pkg.versions.at(-1)!.publishedAt,
      count: pages.length,
      items: pages.map((p) => pageDoc(p, inline)),
    });
  }
  const page = pages.find((p) => p.lower === reg[3] && p.upper === reg[4]);
  if (!page) return json({ error: 'page not found' }, 404);
  return json({ ...pageDoc(page, true), '@id': pageUrl(page) });
}

// ---------------------------------------------------------------- OCI distribution

const TAG_PAGE_LIMIT = 100;

interface ImageDocs {
  index: string;
  documents: Map<string, { mediaType: string; body: string }>;
}

const imageCache = new WeakMap<FakePackage, Map<string, ImageDocs>>();

function imageDocs(pkg: FakePackage, tag: string): ImageDocs | null {
  const entry = pkg.versions.find((x) => x.version === tag);
  if (!entry) return null;
  let byTag = imageCache.get(pkg);
  if (!byTag) {
    byTag = new Map();
    imageCache.set(pkg, byTag);
  }
  const cached = byTag.get(tag);
  if (cached) return cached;
  const documents = new Map<string, { mediaType: string; body: string }>();
  const manifests = ['amd64', 'arm64'].map((architecture) => {
    const config = JSON.stringify({
      architecture,
      os: 'linux',
      created: entry.publishedAt,
      config: {
        Env: ['PATH=/usr/local/bin:/usr/bin:/bin'],
        Cmd: ['node'],
        Labels: {
          'org.opencontainers.image.licenses': entry.licence ?? pkg.licence,
          'org.opencontainers.image.source': pkg.repositoryUrl,
          'org.opencontainers.image.description': pkg.description,
        },
      },
      rootfs: { type: 'layers', diff_ids: [`sha256:${sha256(`${tag}${architecture}layer`)}`] },
      history: [{ created: entry.publishedAt, created_by: 'CMD ["node"]', empty_layer: true }],
    });
    const configDigest = `sha256:${sha256(config)}`;
    documents.set(configDigest, {
      mediaType: 'application/vnd.oci.image.config.v1+json',
      body: config,
    });
    const manifest = JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      config: {
        mediaType: 'application/vnd.oci.image.config.v1+json',
        digest: configDigest,
        size: config.length,
      },
      layers: [
        {
          mediaType: 'application/vnd.oci.image.layer.v1.tar+gzip',
          digest: `sha256:${sha256(`${tag}${architecture}blob`)}`,
          size: 3_000_000,
        },
      ],
    });
    const digest = `sha256:${sha256(manifest)}`;
    documents.set(digest, {
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      body: manifest,
    });
    return {
      mediaType: 'application/vnd.oci.image.manifest.v1+json',
      digest,
      size: manifest.length,
      platform: { architecture, os: 'linux' },
    };
  });
  const docs = {
    index: JSON.stringify({
      schemaVersion: 2,
      mediaType: 'application/vnd.oci.image.index.v1+json',
      manifests,
    }),
    documents,
  };
  byTag.set(tag, docs);
  return docs;
}

export function ociToken(repository: string): string {
  return `fake-token-${hex(repository, 24)}`;
}

export function renderOci(ctx: RenderContext, auth: boolean): FakeResponse | null {
  const unauthorised = (scope?: string): FakeResponse => ({
    status: 401,
    headers: {
      'content-type': 'application/json',
      'www-authenticate': `Bearer realm="${ctx.base}/token",service="fake-registry"${scope ? `,scope="${scope}"` : ''}`,
    },
    body: JSON.stringify({
      errors: [{ code: 'UNAUTHORIZED', message: 'authentication required', detail: null }],
    }),
  });
  if (ctx.path === '/token') {
    const scope = ctx.query.get('scope') ?? '';
    const repository = /^repository:([^:]+):pull$/.exec(scope)?.[1];
    if (!repository || ctx.query.get('service') !== 'fake-registry')
      return json({ details: 'invalid scope' }, 400);
    const token = ociToken(repository);
    return json({
      token,
      access_token: token,
      expires_in: 300,
      issued_at: new Date().toISOString(),
    });
  }
  if (ctx.path === '/v2/' || ctx.path === '/v2') {
    return auth ? unauthorised() : json({});
  }
  const match = /^\/v2\/(.+)\/(tags\/list|manifests\/([^/]+)|blobs\/([^/]+))$/.exec(ctx.path);
  if (!match) return null;
  const repository = match[1]!;
  if (auth && ctx.headers.authorization !== `Bearer ${ociToken(repository)}`) {
    return unauthorised(`repository:${repository}:pull`);
  }
  const pkg = ctx.find(repository);
  const unknown = (code: string) =>
    json(
      {
        errors: [
          {
            code,
            message: `${code.toLowerCase().replace('_', ' ')}`,
            detail: { name: repository },
          },
        ],
      },
      404,
    );
  if (!pkg) return unknown('NAME_UNKNOWN');
  if (match[2] === 'tags/list') {
    const n = Math.min(
      Number(ctx.query.get('n') ?? TAG_PAGE_LIMIT) || TAG_PAGE_LIMIT,
      TAG_PAGE_LIMIT,
    );
    const last = ctx.query.get('last');
    const all = pkg.versions.map((x) => x.version).sort();
    const from = last ? all.findIndex((t) => t > last) : 0;
    const page = from < 0 ? [] : all.slice(from, from + n);
    const more = from >= 0 && from + n < all.length;
    const basePath = new URL(ctx.base).pathname;
    return json(
      { name: repository, tags: page },
      200,
      more
        ? {
            link: `<${basePath}/v2/${repository}/tags/list?last=${encodeURIComponent(page.at(-1)!)}&n=${n}>; rel="next"`,
          }
        : {},
    );
  }
  const reference = decodeURIComponent(match[3] ?? match[4]!);
  if (match[3] !== undefined && !reference.startsWith('sha256:')) {
    const docs = imageDocs(pkg, reference);
    if (!docs) return unknown('MANIFEST_UNKNOWN');
    return {
      status: 200,
      headers: {
        'content-type': 'application/vnd.oci.image.index.v1+json',
        'docker-content-digest': `sha256:${sha256(docs.index)}`,
      },
      body: docs.index,
    };
  }
  for (const tag of pkg.versions) {
    const found = imageDocs(pkg, tag.version)?.documents.get(reference);
    if (found)
      return {
        status: 200,
        headers: { 'content-type': found.mediaType, 'docker-content-digest': reference },
        body: found.body,
      };
  }
  return unknown(match[4] ? 'BLOB_UNKNOWN' : 'MANIFEST_UNKNOWN');
}
