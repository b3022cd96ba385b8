import type { Ecosystem } from '../../../src/ecosystems/types';
import { type FakePackage, type FakeVersion, generatePackage } from './model';

/**
 * The packages every fake registry starts with: modelled on real packages' histories (several
 * versions, pre-releases, deprecations, yanks, maintainer changes, install scripts, relocations,
 * paging), with neutral names and `example.org` URLs.
 */

const v = (
  version: string,
  publishedAt: string,
  extra: Partial<FakeVersion> = {},
): FakeVersion => ({
  version,
  publishedAt,
  ...extra,
});

const REPO = 'https://git.example.org';

export function seedPackages(): Record<Ecosystem, FakePackage[]> {
  return {
    npm: [
      {
        name: 'left-pad',
        description: 'String left pad',
        licence: 'WTFPL',
        repositoryUrl: `git+${REPO}/left-pad/left-pad.git`,
        homepage: `${REPO}/left-pad/left-pad#readme`,
        maintainers: ['azer'],
        downloads: 1_500_000,
        versions: ['0.0.3', '1.0.0', '1.1.0', '1.2.0', '1.3.0'].map((version, i) =>
          v(version, `201${4 + i}-03-2${i}T10:00:00.000Z`, {
            deprecated: 'use String.prototype.padStart()',
            licence: i < 2 ? 'WTFPL' : 'WTFPL',
          }),
        ),
      },
      {
        name: '@acme/widget',
        description: 'Widgets for everyone',
        licence: 'MIT',
        repositoryUrl: `git+${REPO}/acme/widget.git`,
        homepage: `${REPO}/acme/widget#readme`,
        maintainers: ['alice', 'mallory'],
        downloads: 12_345,
        distTags: { latest: '2.0.0', next: '2.1.0-beta.1' },
        versions: [
          v('1.0.0', '2023-01-10T09:00:00.000Z', {
            maintainers: ['alice', 'bob'],
            publishedBy: 'alice',
          }),
          v('1.0.1', '2023-02-11T09:00:00.000Z', {
            maintainers: ['alice', 'bob'],
            publishedBy: 'bob',
            deprecated: 'contains a data-loss bug, upgrade to 1.0.2',
          }),
          v('1.0.2', '2023-02-12T09:00:00.000Z', {
            maintainers: ['alice', 'bob'],
            publishedBy: 'alice',
          }),
          v('2.0.0-rc.1', '2024-05-01T09:00:00.000Z', {
            maintainers: ['alice', 'bob'],
            publishedBy: 'alice',
          }),
          v('2.0.0', '2024-06-01T09:00:00.000Z', {
            maintainers: ['alice', 'mallory'],
            publishedBy: 'mallory',
            scripts: { postinstall: 'node ./scripts/setup.js', test: 'vitest' },
          }),
          v('2.1.0-beta.1', '2024-07-01T09:00:00.000Z', {
            maintainers: ['alice', 'mallory'],
            publishedBy: 'mallory',
          }),
        ],
      },
    ],
    PyPI: [
      {
        name: 'requests',
        description: 'Python HTTP for Humans.',
        licence: 'Apache-2.0',
        repositoryUrl: `${REPO}/psf/requests`,
        homepage: 'https://requests.example.org',
        maintainers: ['Kenneth Reitz'],
        downloads: -1,
        versions: [
          v('2.31.0', '2023-05-22T15:12:42.000Z'),
          v('2.32.0', '2024-05-20T15:12:42.000Z', {
            yanked: true,
            yankedReason: 'Yanked due to conflicts with CVE-2024-35195 mitigation',
          }),
          v('2.32.3', '2024-05-29T15:37:47.000Z'),
          v('3.0.0b1', '2024-09-01T10:00:00.000Z'),
        ],
      },
      {
        name: 'Old_Package',
        description: 'No longer maintained',
        licence: 'BSD',
        repositoryUrl: `${REPO}/old/old-package`,
        homepage: `${REPO}/old/old-package`,
        maintainers: ['Jane Doe'],
        downloads: -1,
        deprecated: 'Development Status :: 7 - Inactive',
        versions: [v('0.9', '2012-01-01T00:00:00.000Z'), v('1.0', '2013-06-01T00:00:00.000Z')],
      },
    ],
    Maven: [
      {
        name: 'org.example:acme-parent',
        description: 'Parent POM',
        licence: 'The Apache Software License, Version 2.0',
        repositoryUrl: `${REPO}/acme/parent`,
        homepage: `${REPO}/acme/parent`,
        maintainers: ['acme'],
        downloads: 0,
        versions: [v('7', '2022-01-01T00:00:00.000Z')],
      },
      {
        name: 'org.example:core-lib',
        description: 'Core library',
        licence: '',
        repositoryUrl: `${REPO}/acme/core-lib`,
        homepage: `${REPO}/acme/core-lib`,
        maintainers: ['jdoe', 'rroe'],
        downloads: 0,
        mavenParent: 'org.example:acme-parent:7',
        versions: [
          v('1.0', '2021-03-01T12:00:00.000Z'),
          v('1.1', '2021-09-01T12:00:00.000Z'),
          v('2.0-beta-1', '2022-02-01T12:00:00.000Z'),
          v('2.0', '2022-04-01T12:00:00.000Z'),
          v('2.1.0-RC1', '2023-04-01T12:00:00.000Z'),
        ],
      },
      {
        name: 'org.example:old-lib',
        description: 'Moved',
        licence: 'MIT',
        repositoryUrl: `${REPO}/acme/old-lib`,
        homepage: `${REPO}/acme/old-lib`,
        maintainers: ['jdoe'],
        downloads: 0,
        deprecated: 'old-lib moved to org.example.next:new-lib',
        successor: 'org.example.next:new-lib',
        versions: [v('3.0', '2019-01-01T00:00:00.000Z'), v('3.1', '2019-06-01T00:00:00.000Z')],
      },
    ],
    Go: [
      {
        name: 'example.org/Acme/Widget',
        description: '',
        licence: '',
        repositoryUrl: `${REPO}/Acme/Widget`,
        homepage: '',
        maintainers: [],
        downloads: 0,
        versions: [
          v('v1.0.0', '2022-01-05T10:00:00Z'),
          v('v1.1.0', '2022-03-05T10:00:00Z', {
            yanked: true,
            yankedReason: 'broken build on windows',
          }),
          v('v1.1.1', '2022-03-06T10:00:00Z', {
            yanked: true,
            yankedReason: 'broken build on windows',
          }),
          v('v1.2.0', '2022-06-05T10:00:00Z'),
          v('v1.3.0-rc.1', '2023-01-05T10:00:00Z'),
        ],
      },
      {
        name: 'example.org/legacy/tool',
        description: '',
        licence: '',
        repositoryUrl: `${REPO}/legacy/tool`,
        homepage: '',
        maintainers: [],
        downloads: 0,
        deprecated: 'use example.org/modern/tool instead.',
        versions: [v('v0.1.0', '2019-01-01T00:00:00Z'), v('v0.2.0', '2019-05-01T00:00:00Z')],
      },
    ],
    Cargo: [
      {
        name: 'fastrand-x',
        description: 'A simple and fast random number generator',
        licence: 'Apache-2.0 OR MIT',
        repositoryUrl: `${REPO}/smol-rs/fastrand-x`,
        homepage: `${REPO}/smol-rs/fastrand-x`,
        maintainers: ['taiki-e', 'notgull'],
        downloads: 251_234_567,
        versions: [
          v('1.9.0', '2023-01-10T00:00:00.000000+00:00', {
            publishedBy: 'taiki-e',
            downloads: 50_000,
          }),
          v('2.0.0', '2023-06-10T00:00:00.000000+00:00', {
            publishedBy: 'notgull',
            yanked: true,
            yankedReason: 'accidentally breaking',
            downloads: 1200,
          }),
          v('2.0.1', '2023-06-12T00:00:00.000000+00:00', {
            publishedBy: 'notgull',
            downloads: 90_000,
          }),
          v('2.1.0', '2024-05-12T00:00:00.000000+00:00', {
            publishedBy: 'notgull',
            downloads: 30_000,
          }),
          v('2.2.0-alpha.1', '2024-08-12T00:00:00.000000+00:00', {
            publishedBy: 'notgull',
            downloads: 10,
          }),
        ],
      },
    ],
    RubyGems: [
      {
        name: 'rack-x',
        description: 'A modular Ruby webserver interface.',
        licence: 'MIT',
        repositoryUrl: `${REPO}/rack/rack-x`,
        homepage: `${REPO}/rack/rack-x`,
        maintainers: ['tenderlove', 'ioquatix'],
        downloads: 1_000_000,
        versions: [
          v('2.2.8', '2023-07-31T00:00:00.000Z', { downloads: 100 }),
          v('2.2.9', '2024-03-20T00:00:00.000Z', { downloads: 90, platforms: ['java'] }),
          v('3.0.0.beta1', '2022-08-08T00:00:00.000Z', { downloads: 10 }),
          v('3.0.0', '2022-09-06T00:00:00.000Z', { downloads: 80, licence: 'MIT' }),
          v('3.0.1', '2022-09-07T00:00:00.000Z', { yanked: true }),
          v('3.1.0', '2024-06-11T00:00:00.000Z', { downloads: 70 }),
        ],
      },
    ],
    Composer: [
      {
        name: 'acme/http-client',
        description: 'Provides powerful methods to fetch HTTP resources',
        licence: 'MIT',
        repositoryUrl: `${REPO}/acme/http-client.git`,
        homepage: 'https://acme.example.org',
        maintainers: ['fabpot', 'nicolas-grekas'],
        downloads: 300_000_000,
        versions: [
          v('v6.4.0', '2023-11-28T15:00:00+00:00'),
          v('v7.0.0-BETA1', '2023-10-01T15:00:00+00:00'),
          v('v7.0.0', '2023-11-29T15:00:00+00:00'),
          v('v7.1.2', '2024-06-28T15:00:00+00:00', { licence: 'MIT' }),
        ],
      },
      {
        name: 'legacy/mailer',
        description: 'Old mailer',
        licence: 'LGPL-2.1-only',
        repositoryUrl: `${REPO}/legacy/mailer.git`,
        homepage: '',
        maintainers: ['legacy'],
        downloads: 5_000,
        deprecated: 'abandoned',
        successor: 'acme/mailer',
        versions: [
          v('v5.4.12', '2018-07-31T00:00:00+00:00'),
          v('v6.0.0', '2019-01-01T00:00:00+00:00'),
        ],
      },
    ],
    NuGet: [
      {
        name: 'Acme.Json',
        description: 'Json.NET-like serializer',
        licence: 'MIT',
        repositoryUrl: `${REPO}/acme/json`,
        homepage: 'https://json.example.org',
        maintainers: ['acme', 'jamesnk'],
        downloads: 5_000_000_000,
        versions: [
          v('12.0.1', '2018-11-27T00:00:00+00:00', {
            deprecated: 'Has a critical bug',
            alternatePackage: 'Acme.Json',
          }),
          v('12.0.3', '2019-11-09T00:00:00+00:00'),
          v('13.0.1', '2021-03-22T00:00:00+00:00'),
          v('13.0.2', '2022-11-24T00:00:00+00:00', { yanked: true }),
          v('13.0.3', '2023-03-08T00:00:00+00:00'),
          v('14.0.0-beta1', '2024-05-08T00:00:00+00:00'),
        ],
      },
      {
        name: 'Legacy.Http',
        description: 'Legacy HTTP helpers',
        licence: 'Apache-2.0',
        repositoryUrl: `${REPO}/legacy/http`,
        homepage: `${REPO}/legacy/http`,
        maintainers: ['legacy'],
        downloads: 12_345,
        versions: [
          v('1.0.0', '2015-01-01T00:00:00+00:00'),
          v('1.1.0', '2016-01-01T00:00:00+00:00', {
            deprecated: 'Use Acme.Http instead.',
            alternatePackage: 'Acme.Http',
          }),
        ],
      },
      // More than 128 versions: the registration index links its pages instead of inlining them.
      { ...generatePackage('NuGet', 1, 150), name: 'Big.Package' },
    ],
    Docker: [
      {
        name: 'library/node',
        description: 'Node.js is a JavaScript-based platform',
        licence: 'MIT',
        repositoryUrl: `${REPO}/nodejs/docker-node`,
        homepage: '',
        maintainers: [],
        downloads: 0,
        versions: [
          v('18', '2023-04-18T00:00:00Z'),
          v('18-alpine', '2023-04-18T00:00:00Z'),
          v('20', '2023-10-24T00:00:00Z'),
          v('20.11.1', '2024-02-14T00:00:00Z'),
          v('20-alpine', '2024-02-14T00:00:00Z'),
          v('22.0.0rc1', '2024-04-01T00:00:00Z'),
          v('latest', '2024-04-24T00:00:00Z'),
          v('lts', '2024-04-24T00:00:00Z'),
        ],
      },
      // More tags than one page holds: the tag list is paged with Link headers.
      { ...generatePackage('Docker', 2, 230), name: 'acme/app' },
    ],
  };
}
