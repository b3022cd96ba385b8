import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { random as seeded } from './osv-generator';

/**
 * A deterministic tree of Composer projects and the OSV advisories that match them, for
 * bench/audit-memory.ts: `projects` directories `app-NNNN/` each holding a composer.json (the
 * direct requirements) and a composer.lock of `PACKAGES_PER_LOCK` real Packagist package names at
 * generated versions. Every package of the pool has three advisories (each a GHSA record with a
 * CVE alias; every third one also has a FriendsOfPHP-style record of the same CVE, joined by the
 * audit) fixed in 2.0.0, 3.0.0 and 4.0.0, so a version of major 1 has three findings, major 2
 * two, major 3 one, majors 4 and 5 none: about 1.2 findings per package, 125 per lock.
 */

/** Real Packagist names (the kind a Laravel or Symfony application locks). */
const POOL = [
  'brick/math',
  'carbonphp/carbon-doctrine-types',
  'dflydev/dot-access-data',
  'doctrine/cache',
  'doctrine/collections',
  'doctrine/dbal',
  'doctrine/deprecations',
  'doctrine/event-manager',
  'doctrine/inflector',
  'doctrine/instantiator',
  'doctrine/lexer',
  'doctrine/orm',
  'doctrine/persistence',
  'dragonmantank/cron-expression',
  'egulias/email-validator',
  'fakerphp/faker',
  'filp/whoops',
  'fruitcake/php-cors',
  'graham-campbell/result-type',
  'guzzlehttp/guzzle',
  'guzzlehttp/promises',
  'guzzlehttp/psr7',
  'guzzlehttp/uri-template',
  'hamcrest/hamcrest-php',
  'laravel/framework',
  'laravel/prompts',
  'laravel/sail',
  'laravel/sanctum',
  'laravel/serializable-closure',
  'laravel/tinker',
  'league/commonmark',
  'league/config',
  'league/flysystem',
  'league/flysystem-local',
  'league/mime-type-detection',
  'league/oauth2-server',
  'league/uri',
  'league/uri-interfaces',
  'mockery/mockery',
  'monolog/monolog',
  'myclabs/deep-copy',
  'nesbot/carbon',
  'nette/schema',
  'nette/utils',
  'nikic/php-parser',
  'nunomaduro/collision',
  'nunomaduro/termwind',
  'phar-io/manifest',
  'phar-io/version',
  'phpoption/phpoption',
  'phpunit/php-code-coverage',
  'phpunit/php-file-iterator',
  'phpunit/php-invoker',
  'phpunit/php-text-template',
  'phpunit/php-timer',
  'phpunit/phpunit',
  'psr/cache',
  'psr/clock',
  'psr/container',
  'psr/event-dispatcher',
  'psr/http-client',
  'psr/http-factory',
  'psr/http-message',
  'psr/log',
  'psr/simple-cache',
  'psy/psysh',
  'ralouphie/getallheaders',
  'ramsey/collection',
  'ramsey/uuid',
  'sebastian/cli-parser',
  'sebastian/code-unit',
  'sebastian/comparator',
  'sebastian/complexity',
  'sebastian/diff',
  'sebastian/environment',
  'sebastian/exporter',
  'sebastian/global-state',
  'sebastian/lines-of-code',
  'sebastian/object-enumerator',
  'sebastian/recursion-context',
  'sebastian/type',
  'sebastian/version',
  'spatie/backtrace',
  'spatie/flare-client-php',
  'spatie/ignition',
  'spatie/laravel-ignition',
  'symfony/console',
  'symfony/css-selector',
  'symfony/deprecation-contracts',
  'symfony/error-handler',
  'symfony/event-dispatcher',
  'symfony/event-dispatcher-contracts',
  'symfony/finder',
  'symfony/http-client',
  'symfony/http-foundation',
  'symfony/http-kernel',
  'symfony/mailer',
  'symfony/mime',
  'symfony/polyfill-ctype',
  'symfony/polyfill-intl-grapheme',
  'symfony/polyfill-intl-idn',
  'symfony/polyfill-intl-normalizer',
  'symfony/polyfill-mbstring',
  'symfony/polyfill-php80',
  'symfony/polyfill-php83',
  'symfony/polyfill-uuid',
  'symfony/process',
  'symfony/routing',
  'symfony/security-core',
  'symfony/security-http',
  'symfony/serializer',
  'symfony/service-contracts',
  'symfony/string',
  'symfony/translation',
  'symfony/translation-contracts',
  'symfony/twig-bridge',
  'symfony/uid',
  'symfony/validator',
  'symfony/var-dumper',
  'symfony/yaml',
  'theseer/tokenizer',
  'tijsverkoyen/css-to-inline-styles',
  'twig/twig',
  'vlucas/phpdotenv',
  'voku/portable-ascii',
  'webmozart/assert',
] as const;

export const PACKAGES_PER_LOCK = 105;
const FIXED_MAJORS = [2, 3, 4] as const;

const hex = (random: () => number, length: number): string =>
  Array.from({ length }, () => Math.floor(random() * 16).toString(16)).join('');

const ghsaPart = (random: () => number): string =>
  Array.from({ length: 4 }, () => '23456789cfghjmpqrvwx'[Math.floor(random() * 20)]).join('');

const VECTORS = [
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:N/S:U/C:H/I:H/A:H',
  'CVSS:3.1/AV:N/AC:L/PR:N/UI:R/S:C/C:L/I:L/A:N',
  'CVSS:3.1/AV:N/AC:H/PR:N/UI:N/S:U/C:H/I:N/A:N',
  'CVSS:3.1/AV:L/AC:L/PR:L/UI:N/S:U/C:N/I:N/A:H',
];

const FLAWS = [
  'Cross-site scripting in error pages',
  'Denial of service through crafted input',
  'Open redirect after login',
  'Server-side request forgery in URL handling',
  'Insecure deserialization of cached values',
  'Header injection through user-supplied values',
];

/** Every advisory of the pool, one JSON Lines text; `records` counts them. */
export function generateAdvisories(): { jsonl: string; records: number } {
  const random = seeded(19);
  const lines: string[] = [];
  POOL.forEach((name, p) => {
    FIXED_MAJORS.forEach((fixedMajor, k) => {
      const cve = `CVE-20${20 + (p % 5)}-${String(10000 + p * 10 + k)}`;
      const ghsa = `GHSA-${ghsaPart(random)}-${ghsaPart(random)}-${ghsaPart(random)}`;
      const flaw = FLAWS[(p + k) % FLAWS.length]!;
      const affected = [
        {
          package: { ecosystem: 'Packagist', name, purl: `pkg:composer/${name}` },
          ranges: [
            { type: 'ECOSYSTEM', events: [{ introduced: '0' }, { fixed: `${fixedMajor}.0.0` }] },
          ],
        },
      ];
      lines.push(
        JSON.stringify({
          schema_version: '1.6.0',
          id: ghsa,
          modified: '2025-03-01T10:00:00Z',
          published: '2024-11-05T09:30:00Z',
          aliases: [cve],
          summary: `${name}: ${flaw}`,
          details:
            `${flaw} in ${name} before ${fixedMajor}.0.0. An attacker who controls the affected input can ${flaw.toLowerCase()}; upgrade to ${fixedMajor}.0.0 or later. `.repeat(
              2,
            ),
          severity: [{ type: 'CVSS_V3', score: VECTORS[(p + k) % VECTORS.length]! }],
          affected,
          references: [
            { type: 'ADVISORY', url: `https://github.com/advisories/${ghsa}` },
            { type: 'WEB', url: `https://github.com/${name}/security/advisories/${ghsa}` },
          ],
        }),
      );
      if ((p + k) % 3 === 0) {
        lines.push(
          JSON.stringify({
            schema_version: '1.6.0',
            id: `x_FOP-${name.replace('/', '-')}-${cve}`,
            modified: '2025-02-01T10:00:00Z',
            published: '2024-11-05T09:30:00Z',
            aliases: [cve],
            summary: flaw,
            details: flaw,
            affected,
            database_specific: { derived_from: 'FriendsOfPHP/security-advisories' },
          }),
        );
      }
    });
  });
  return { jsonl: `${lines.join('\n')}\n`, records: lines.length };
}

function lockEntry(name: string, version: string, random: () => number): object {
  const reference = hex(random, 40);
  const repository = `https://github.com/${name}`;
  return {
    name,
    version,
    source: { type: 'git', url: `${repository}.git`, reference },
    dist: {
      type: 'zip',
      url: `https://api.github.com/repos/${name}/zipball/${reference}`,
      reference,
      shasum: '',
    },
    require: { php: '>=8.1', 'psr/log': '^1.0 || ^2.0 || ^3.0' },
    type: 'library',
    autoload: { 'psr-4': { [`${name.split('/')[1]!.replace(/-/g, '')}\\`]: 'src/' } },
    'notification-url': 'https://packagist.org/downloads/',
    license: ['MIT'],
    description: `The ${name} package: a component used by many PHP applications.`,
    support: { issues: `${repository}/issues`, source: `${repository}/tree/v${version}` },
    time: '2024-06-01T12:00:00+00:00',
  };
}

/**
 * Writes `projects` Composer projects under `root`; returns how many findings the audit must
 * report (affected package versions × advisories, CVE-joined records counted once).
 */
export function generateComposerTree(root: string, projects: number): { expectedFindings: number } {
  let expectedFindings = 0;
  for (let i = 0; i < projects; i++) {
    const random = seeded(1000 + i);
    const dir = join(root, `app-${String(i).padStart(4, '0')}`);
    mkdirSync(dir, { recursive: true });
    // A window of the pool, so projects share most packages but not all.
    const start = Math.floor(random() * POOL.length);
    const names = Array.from(
      { length: Math.min(PACKAGES_PER_LOCK, POOL.length) },
      (_, j) => POOL[(start + j) % POOL.length]!,
    ).sort();
    const packages = names.map((name) => {
      const major = 1 + Math.floor(random() * 5);
      expectedFindings += FIXED_MAJORS.filter((fixed) => fixed > major).length;
      return lockEntry(
        name,
        `${major}.${Math.floor(random() * 20)}.${Math.floor(random() * 9)}`,
        random,
      );
    });
    const direct = names.filter((_, j) => j % 9 === 0);
    const manifest = {
      name: `example/app-${i}`,
      type: 'project',
      require: Object.fromEntries(direct.map((name) => [name, '*'])),
    };
    writeFileSync(join(dir, 'composer.json'), `${JSON.stringify(manifest, null, 4)}\n`);
    const lock = {
      _readme: ['This file locks the dependencies of your project to a known state'],
      'content-hash': hex(random, 32),
      packages,
      'packages-dev': [],
      aliases: [],
      'minimum-stability': 'stable',
      'stability-flags': [],
      'prefer-stable': true,
      'prefer-lowest': false,
      platform: { php: '^8.2' },
      'platform-dev': [],
      'plugin-api-version': '2.6.0',
    };
    writeFileSync(join(dir, 'composer.lock'), `${JSON.stringify(lock, null, 4)}\n`);
  }
  return { expectedFindings };
}
