import { type FakePackage, type FakeVersion, hex, withoutZone } from './model';

/**
 * Documents of the JSON registries (npm packument, PyPI JSON API, crates API, RubyGems API) in
 * the shapes those services answer with, field for field.
 */

export interface FakeResponse {
  status: number;
  headers?: Record<string, string>;
  body: string;
}

export interface RenderContext {
  /** Base URL of this ecosystem on the fake server (what the client is configured with). */
  base: string;
  /** Path below the base, decoded, starting with `/`. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  find: (key: string) => FakePackage | undefined;
}

export const json = (
  value: unknown,
  status = 200,
  headers: Record<string, string> = {},
): FakeResponse => ({
  status,
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(value),
});

const isPre = (version: string) => /[a-z]/i.test(version.replace(/^v/, ''));

function newestStable(pkg: FakePackage): FakeVersion | undefined {
  return (
    [...pkg.versions].reverse().find((x) => !isPre(x.version) && !x.yanked) ?? pkg.versions.at(-1)
  );
}

// ---------------------------------------------------------------- npm

export function renderNpm(ctx: RenderContext): FakeResponse | null {
  const name = ctx.path.slice(1);
  const pkg = ctx.find(name);
  if (!pkg) return json({ error: 'Not found' }, 404);
  const people = (names: string[]) => names.map((n) => ({ name: n, email: `${n}@example.org` }));
  const latest = pkg.distTags?.latest ?? newestStable(pkg)?.version ?? '';
  const short = name.split('/').at(-1)!;
  const versions: Record<string, unknown> = {};
  const time: Record<string, string> = {
    created: pkg.versions[0]?.publishedAt ?? '2020-01-01T00:00:00.000Z',
    modified: pkg.versions.at(-1)?.publishedAt ?? '2020-01-01T00:00:00.000Z',
  };
  for (const entry of pkg.versions) {
    time[entry.version] = entry.publishedAt;
    const maintainers = entry.maintainers ?? pkg.maintainers;
    versions[entry.version] = {
      name,
      version: entry.version,
      description: pkg.description,
      main: 'index.js',
      scripts: entry.scripts ?? { test: 'node test.js' },
      repository: { type: 'git', url: pkg.repositoryUrl },
      keywords: ['fake'],
      author: { name: maintainers[0] ?? 'unknown' },
      license: entry.licence ?? pkg.licence,
      bugs: { url: `${pkg.homepage.replace(/#.*$/, '')}/issues` },
      homepage: pkg.homepage,
      dependencies: {},
      gitHead: hex(`${name}@${entry.version}`, 40),
      _id: `${name}@${entry.version}`,
      _nodeVersion: '20.11.0',
      _npmVersion: '10.2.4',
      dist: {
        integrity: `sha512-${Buffer.from(hex(entry.version, 64), 'hex').toString('base64')}`,
        shasum: hex(`${name}${entry.version}`, 40),
        tarball: `${ctx.base}/${name}/-/${short}-${entry.version}.tgz`,
        fileCount: 7,
        unpackedSize: 10_240,
        signatures: [{ keyid: 'SHA256:fake', sig: hex(entry.version, 64) }],
      },
      _npmUser: {
        name: entry.publishedBy ?? maintainers[0] ?? 'unknown',
        email: 'npm@example.org',
      },
      directories: {},
      maintainers: people(maintainers),
      _hasShrinkwrap: false,
      ...(entry.scripts && ['preinstall', 'install', 'postinstall'].some((s) => s in entry.scripts!)
        ? { hasInstallScript: true }
        : {}),
      ...(entry.deprecated ? { deprecated: entry.deprecated } : {}),
    };
  }
  const distTags: Record<string, string> = { latest, ...pkg.distTags };
  return json({
    _id: name,
    _rev: `${pkg.versions.length}-${hex(name, 32)}`,
    name,
    'dist-tags': distTags,
    versions,
    time,
    maintainers: people(pkg.maintainers),
    description: pkg.description,
    homepage: pkg.homepage,
    keywords: ['fake'],
    repository: { type: 'git', url: pkg.repositoryUrl },
    author: { name: pkg.maintainers[0] ?? 'unknown' },
    bugs: { url: `${pkg.homepage.replace(/#.*$/, '')}/issues` },
    license: pkg.licence,
    readme: `# ${name}\n\n${pkg.description}\n`,
    readmeFilename: 'README.md',
    users: { someone: true },
  });
}

// ---------------------------------------------------------------- PyPI

export function renderPypi(ctx: RenderContext): FakeResponse | null {
  const match = /^\/pypi\/([^/]+)\/json$/.exec(ctx.path);
  if (!match) return null;
  const pkg = ctx.find(match[1]!);
  if (!pkg) return json({ message: 'Not Found' }, 404);
  const latest = newestStable(pkg)!;
  const files = (entry: FakeVersion) => {
    const stem = `${pkg.name.replace(/-/g, '_')}-${entry.version}`;
    return ['sdist', 'bdist_wheel'].map((type, i) => {
      const filename = type === 'sdist' ? `${stem}.tar.gz` : `${stem}-py3-none-any.whl`;
      const uploaded = new Date(Date.parse(entry.publishedAt) + i * 2000).toISOString();
      return {
        comment_text: '',
        digests: {
          blake2b_256: hex(`b${filename}`),
          md5: hex(`m${filename}`, 32),
          sha256: hex(filename),
        },
        downloads: -1,
        filename,
        has_sig: false,
        md5_digest: hex(`m${filename}`, 32),
        packagetype: type,
        python_version: type === 'sdist' ? 'source' : 'py3',
        requires_python: '>=3.8',
        size: 60_000 + i,
        upload_time: withoutZone(uploaded),
        upload_time_iso_8601: uploaded.replace(/\.(\d{3})Z$/, '.$1000Z'),
        url: `${ctx.base}/packages/${hex(filename, 2)}/${filename}`,
        yanked: entry.yanked === true,
        yanked_reason: entry.yanked ? (entry.yankedReason ?? null) : null,
      };
    });
  };
  const releases: Record<string, unknown[]> = {};
  for (const entry of pkg.versions) releases[entry.version] = files(entry);
  const inactive = pkg.deprecated === 'Development Status :: 7 - Inactive';
  return json({
    info: {
      author: pkg.maintainers[0] ?? '',
      author_email: 'me@example.org',
      bugtrack_url: null,
      classifiers: [
        inactive
          ? 'Development Status :: 7 - Inactive'
          : 'Development Status :: 5 - Production/Stable',
        'License :: OSI Approved :: Apache Software License',
        'Programming Language :: Python :: 3',
      ],
      description: `# ${pkg.name}\n\n${pkg.description}`,
      description_content_type: 'text/markdown',
      docs_url: null,
      download_url: '',
      downloads: { last_day: -1, last_month: -1, last_week: -1 },
      dynamic: null,
      home_page: pkg.homepage,
      keywords: '',
      license: pkg.licence,
      license_expression: null,
      license_files: null,
      maintainer: '',
      maintainer_email: '',
      name: pkg.name,
      package_url: `${ctx.base}/project/${pkg.name}/`,
      platform: null,
      project_url: `${ctx.base}/project/${pkg.name}/`,
      project_urls: {
        Documentation: pkg.homepage,
        Homepage: pkg.homepage,
        Source: pkg.repositoryUrl,
      },
      provides_extra: null,
      release_url: `${ctx.base}/project/${pkg.name}/${latest.version}/`,
      requires_dist: null,
      requires_python: '>=3.8',
      summary: pkg.description,
      version: latest.version,
      yanked: false,
      yanked_reason: null,
    },
    last_serial: 24_000_000 + pkg.versions.length,
    releases,
    urls: files(latest),
    vulnerabilities: [],
  });
}

// ---------------------------------------------------------------- crates API

export function renderCrates(ctx: RenderContext): FakeResponse | null {
  const match = /^\/api\/v1\/crates\/([^/]+)(\/owners|\/versions)?$/.exec(ctx.path);
  if (!match) return null;
  const pkg = ctx.find(match[1]!);
  if (!pkg) return json({ errors: [{ detail: `crate \`${match[1]}\` does not exist` }] }, 404);
  if (match[2] === '/versions') {
    // Paged newest first; `seek` is the index of the next entry (crates.io uses an opaque key).
    const all = (
      JSON.parse(renderCrates({ ...ctx, path: `/api/v1/crates/${pkg.name}` })!.body) as {
        versions: unknown[];
      }
    ).versions;
    const perPage = Math.min(Number(ctx.query.get('per_page') ?? 10) || 10, 100);
    const start = Number(ctx.query.get('seek') ?? 0) || 0;
    const next =
      start + perPage < all.length ? `?per_page=${perPage}&seek=${start + perPage}` : null;
    return json({
      versions: all.slice(start, start + perPage),
      meta: { total: all.length, next_page: next },
    });
  }
  if (match[2]) {
    return json({
      users: pkg.maintainers.map((login, i) => ({
        id: 1000 + i,
        login,
        kind: 'user',
        url: `${REPO_USERS}/${login}`,
        name: login,
        avatar: `${REPO_USERS}/${login}.png`,
      })),
    });
  }
  const ids = pkg.versions.map((_, i) => 900_000 + i);
  const newestFirst = [...pkg.versions].reverse();
  const stable = newestStable(pkg)!.version;
  return json({
    categories: [
      {
        id: 'algorithms',
        category: 'Algorithms',
        slug: 'algorithms',
        description: '',
        crates_cnt: 1,
        created_at: '2017-01-17T19:13:05.112025+00:00',
      },
    ],
    crate: {
      id: pkg.name,
      name: pkg.name,
      updated_at: pkg.versions.at(-1)!.publishedAt,
      versions: ids.reverse(),
      keywords: ['random'],
      categories: ['algorithms'],
      badges: [],
      created_at: pkg.versions[0]!.publishedAt,
      downloads: pkg.downloads,
      recent_downloads: Math.floor(pkg.downloads / 10),
      default_version: stable,
      num_versions: pkg.versions.length,
      yanked: false,
      max_version: pkg.versions.at(-1)!.version,
      newest_version: pkg.versions.at(-1)!.version,
      max_stable_version: stable,
      description: pkg.description,
      homepage: pkg.homepage,
      documentation: `${pkg.homepage}/docs`,
      repository: pkg.repositoryUrl,
      links: {
        version_downloads: `/api/v1/crates/${pkg.name}/downloads`,
        versions: null,
        owners: `/api/v1/crates/${pkg.name}/owners`,
        owner_team: `/api/v1/crates/${pkg.name}/owner_team`,
        owner_user: `/api/v1/crates/${pkg.name}/owner_user`,
        reverse_dependencies: `/api/v1/crates/${pkg.name}/reverse_dependencies`,
      },
      exact_match: false,
    },
    keywords: [
      { id: 'random', keyword: 'random', created_at: '2015-01-01T00:00:00+00:00', crates_cnt: 1 },
    ],
    versions: newestFirst.map((entry, i) => ({
      id: 900_000 + pkg.versions.length - 1 - i,
      crate: pkg.name,
      num: entry.version,
      dl_path: `/api/v1/crates/${pkg.name}/${entry.version}/download`,
      readme_path: `/api/v1/crates/${pkg.name}/${entry.version}/readme`,
      updated_at: entry.publishedAt,
      created_at: entry.publishedAt,
      downloads: entry.downloads ?? 0,
      features: { default: ['std'], std: [] },
      yanked: entry.yanked === true,
      yank_message: entry.yanked ? (entry.yankedReason ?? null) : null,
      lib_links: null,
      license: entry.licence ?? pkg.licence,
      links: {
        dependencies: `/api/v1/crates/${pkg.name}/${entry.version}/dependencies`,
        version_downloads: `/api/v1/crates/${pkg.name}/${entry.version}/downloads`,
        authors: `/api/v1/crates/${pkg.name}/${entry.version}/authors`,
      },
      crate_size: 14_000,
      published_by: entry.publishedBy
        ? {
            id: 1,
            login: entry.publishedBy,
            name: entry.publishedBy,
            avatar: `${REPO_USERS}/${entry.publishedBy}.png`,
            url: `${REPO_USERS}/${entry.publishedBy}`,
          }
        : null,
      audit_actions: [],
      checksum: hex(`${pkg.name}${entry.version}`),
      rust_version: '1.60',
      has_lib: true,
      bin_names: [],
      edition: '2021',
      description: pkg.description,
      homepage: pkg.homepage,
      documentation: null,
      repository: pkg.repositoryUrl,
    })),
  });
}

const REPO_USERS = 'https://git.example.org';

// ---------------------------------------------------------------- RubyGems

export function renderRubygems(ctx: RenderContext): FakeResponse | null {
  const versionsMatch = /^\/api\/v1\/versions\/([^/]+)\.json$/.exec(ctx.path);
  const gemMatch = /^\/api\/v1\/gems\/([^/]+)\.json$/.exec(ctx.path);
  const ownersMatch = /^\/api\/v1\/gems\/([^/]+)\/owners\.json$/.exec(ctx.path);
  const key = versionsMatch?.[1] ?? gemMatch?.[1] ?? ownersMatch?.[1];
  if (key === undefined) return null;
  const pkg = ctx.find(key);
  if (!pkg)
    return {
      status: 404,
      headers: { 'content-type': 'text/plain' },
      body: 'This rubygem could not be found.',
    };
  const metadata = {
    source_code_uri: pkg.repositoryUrl,
    homepage_uri: pkg.homepage,
    changelog_uri: `${pkg.repositoryUrl}/blob/main/CHANGELOG.md`,
    bug_tracker_uri: `${pkg.repositoryUrl}/issues`,
    rubygems_mfa_required: 'true',
  };
  if (ownersMatch) return json(pkg.maintainers.map((handle, i) => ({ id: 500 + i, handle })));
  const listed = pkg.versions.filter((x) => !x.yanked);
  if (versionsMatch) {
    const rows = [...listed].reverse().flatMap((entry) =>
      ['ruby', ...(entry.platforms ?? [])].map((platform) => ({
        authors: pkg.maintainers.join(', '),
        built_at: entry.publishedAt,
        created_at: entry.publishedAt,
        description: pkg.description,
        downloads_count: entry.downloads ?? 0,
        metadata,
        number: entry.version,
        summary: pkg.description,
        platform,
        rubygems_version: '>= 0',
        ruby_version: '>= 2.4.0',
        prerelease: /[a-z]/i.test(entry.version),
        licenses: [entry.licence ?? pkg.licence],
        requirements: {},
        sha: hex(`${entry.version}${platform}`),
        spec_sha: hex(`spec${entry.version}${platform}`),
      })),
    );
    return json(rows);
  }
  const latest = newestStable({ ...pkg, versions: listed })!;
  return json({
    name: pkg.name,
    downloads: pkg.downloads,
    version: latest.version,
    version_created_at: latest.publishedAt,
    version_downloads: latest.downloads ?? 0,
    platform: 'ruby',
    authors: pkg.maintainers.join(', '),
    info: pkg.description,
    licenses: [pkg.licence],
    metadata,
    yanked: false,
    sha: hex(latest.version),
    spec_sha: hex(`spec${latest.version}`),
    project_uri: `${ctx.base}/gems/${pkg.name}`,
    gem_uri: `${ctx.base}/gems/${pkg.name}-${latest.version}.gem`,
    homepage_uri: pkg.homepage,
    wiki_uri: null,
    documentation_uri: null,
    mailing_list_uri: null,
    source_code_uri: pkg.repositoryUrl,
    bug_tracker_uri: `${pkg.repositoryUrl}/issues`,
    changelog_uri: `${pkg.repositoryUrl}/blob/main/CHANGELOG.md`,
    funding_uri: null,
    dependencies: { development: [], runtime: [] },
  });
}
