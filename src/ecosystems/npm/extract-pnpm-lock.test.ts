import { describe, expect, it } from 'vitest';
import { fixture, inputOf, type Row, rows } from '../../../test/support/npm-extract';
import { pnpmLockExtractor } from './extract-pnpm-lock';

const extract = (text: string) => pnpmLockExtractor.extract(inputOf('pnpm-lock.yaml', text));

const SHA = '5f4c3b2a1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a';

const V5: Row[] = [
  [
    '@types/prop-types',
    '15.7.5',
    'development',
    false,
    'resolved',
    23,
    ['typescript'],
    'registry',
    'pkg:npm/%40types/prop-types@15.7.5',
  ],
  // `dev: false` + `optional: true`.
  ['fsevents', '2.3.2', 'optional', true, 'resolved', 27, [], 'registry', 'pkg:npm/fsevents@2.3.2'],
  [
    'js-tokens',
    '4.0.0',
    'runtime',
    false,
    'resolved',
    35,
    ['loose-envify'],
    'registry',
    'pkg:npm/js-tokens@4.0.0',
  ],
  [
    'loose-envify',
    '1.4.0',
    'runtime',
    false,
    'resolved',
    39,
    ['react', 'react-dom', 'scheduler'],
    'registry',
    'pkg:npm/loose-envify@1.4.0',
  ],
  // `/react-dom/18.2.0_react@18.2.0`: the `_peer` suffix is not part of the version.
  [
    'react-dom',
    '18.2.0',
    'runtime',
    true,
    'resolved',
    46,
    [],
    'registry',
    'pkg:npm/react-dom@18.2.0',
  ],
  [
    'react',
    '18.2.0',
    'runtime',
    true,
    'resolved',
    56,
    ['react-dom'],
    'registry',
    'pkg:npm/react@18.2.0',
  ],
  [
    'scheduler',
    '0.23.0',
    'runtime',
    false,
    'resolved',
    63,
    ['react-dom'],
    'registry',
    'pkg:npm/scheduler@0.23.0',
  ],
  [
    'typescript',
    '5.0.4',
    'development',
    true,
    'resolved',
    69,
    [],
    'registry',
    'pkg:npm/typescript@5.0.4',
  ],
  // A non-registry key explained by the entry's own name/version fields.
  [
    'my-fork',
    '2.0.0',
    'runtime',
    true,
    'resolved',
    77,
    [],
    `url https://codeload.github.com/acme/my-fork/tar.gz/${SHA}`,
    `pkg:npm/my-fork@2.0.0?download_url=https%3A%2F%2Fcodeload.github.com%2Facme%2Fmy-fork%2Ftar.gz%2F${SHA}`,
  ],
];

const V6: Row[] = [
  [
    '@types/node',
    '20.11.0',
    'development',
    false,
    'resolved',
    42,
    ['vitest'],
    'registry',
    'pkg:npm/%40types/node@20.11.0',
  ],
  [
    'loose-envify',
    '1.4.0',
    'runtime',
    false,
    'resolved',
    46,
    ['react', 'react-dom'],
    'registry',
    'pkg:npm/loose-envify@1.4.0',
  ],
  // Two peer variants, `(react@18.2.0)` and `(react@18.3.1)`, are one package.
  [
    'react-dom',
    '18.2.0',
    'runtime',
    true,
    'resolved',
    51,
    [],
    'registry',
    'pkg:npm/react-dom@18.2.0',
  ],
  // No dev flag: reachability says runtime (through react-dom), though packages/ui has it as dev.
  [
    'react',
    '18.2.0',
    'runtime',
    true,
    'resolved',
    69,
    ['react-dom'],
    'registry',
    'pkg:npm/react@18.2.0',
  ],
  [
    'react',
    '18.3.1',
    'runtime',
    true,
    'resolved',
    74,
    ['react-dom'],
    'registry',
    'pkg:npm/react@18.3.1',
  ],
  // Alias `string-width-cjs` → `/string-width@4.2.3`; the `link:../ui` workspace is not a package.
  [
    'string-width',
    '4.2.3',
    'runtime',
    true,
    'resolved',
    80,
    [],
    'registry',
    'pkg:npm/string-width@4.2.3',
  ],
  ['vitest', '1.6.0', 'development', true, 'resolved', 84, [], 'registry', 'pkg:npm/vitest@1.6.0'],
];

const V9: Row[] = [
  [
    '@testing-library/react',
    '14.3.1',
    'runtime',
    true,
    'resolved',
    46,
    [],
    'registry',
    'pkg:npm/%40testing-library/react@14.3.1',
  ],
  // No flags in v9: dev-only by reachability from the importer's devDependencies.
  [
    'debug',
    '4.3.4',
    'development',
    false,
    'resolved',
    53,
    ['eslint'],
    'registry',
    'pkg:npm/debug@4.3.4',
  ],
  ['eslint', '9.0.0', 'development', true, 'resolved', 57, [], 'registry', 'pkg:npm/eslint@9.0.0'],
  ['fsevents', '2.3.3', 'optional', true, 'resolved', 61, [], 'registry', 'pkg:npm/fsevents@2.3.3'],
  [
    'loose-envify',
    '1.4.0',
    'runtime',
    false,
    'resolved',
    66,
    ['react', 'react-dom'],
    'registry',
    'pkg:npm/loose-envify@1.4.0',
  ],
  [
    'my-fork',
    '2.0.0',
    'runtime',
    true,
    'resolved',
    70,
    [],
    'url https://codeload.github.com/acme/my-fork/tar.gz/5f4c3b2',
    'pkg:npm/my-fork@2.0.0?download_url=https%3A%2F%2Fcodeload.github.com%2Facme%2Fmy-fork%2Ftar.gz%2F5f4c3b2',
  ],
  // Snapshots `react-dom@18.3.1(react@18.3.1)` and `(react@18.2.0)` both map to this package.
  [
    'react-dom',
    '18.3.1',
    'runtime',
    true,
    'resolved',
    74,
    ['@testing-library/react'],
    'registry',
    'pkg:npm/react-dom@18.3.1',
  ],
  [
    'react',
    '18.3.1',
    'runtime',
    true,
    'resolved',
    79,
    ['@testing-library/react', 'react-dom'],
    'registry',
    'pkg:npm/react@18.3.1',
  ],
  [
    'string-width',
    '4.2.3',
    'runtime',
    true,
    'resolved',
    83,
    [],
    'registry',
    'pkg:npm/string-width@4.2.3',
  ],
  [
    'vendored',
    '0.1.0',
    'runtime',
    true,
    'resolved',
    87,
    [],
    'path vendor/vendored',
    'pkg:npm/vendored@0.1.0',
  ],
];

describe('npm/pnpm-lock scenarios', () => {
  it('pnpm-v5: /name/version keys, _peer suffixes, dev/optional flags, root-level importer', () => {
    const result = extract(fixture('pnpm-v5.yaml'));
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual(V5);
  });

  it('pnpm-v6: /name@version(peer) keys, importers, aliases, links, merged peer variants', () => {
    const result = extract(fixture('pnpm-v6.yaml'));
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual(V6);
  });

  it('pnpm-v9-peers: packages + snapshots, nested peer suffixes, optional snapshots, file: deps', () => {
    const result = extract(fixture('pnpm-v9-peers.yaml'));
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual(V9);
  });

  it("pnpm-v9-peers with the projects' package.json files: each importer is the project itself", () => {
    const input = inputOf('web/pnpm-lock.yaml', fixture('pnpm-v9-peers.yaml'), {
      'web/package.json': fixture('pnpm-v9-peers.package.json'),
      'web/packages/config/package.json': fixture('pnpm-v9-peers.config.package.json'),
    });
    const result = pnpmLockExtractor.extract(input);
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual([
      ['acme-web', '2.1.0', 'self', false, 'resolved', 9, [], 'path .', 'pkg:npm/acme-web@2.1.0'],
      // Not a version: the member is reported unpinned (and so never matched).
      [
        '@acme/config',
        null,
        'self',
        false,
        'unpinned',
        38,
        [],
        'path packages/config',
        'pkg:npm/%40acme/config',
      ],
      // The ordinary dependencies are exactly those read without the manifests.
      ...V9,
    ]);
  });

  it('pnpm-v5 root-level importer with its package.json: the project, with no line', () => {
    const input = inputOf('pnpm-lock.yaml', fixture('pnpm-v5.yaml'), {
      'package.json': JSON.stringify({ name: 'legacy-app', version: '0.3.1' }),
    });
    const result = pnpmLockExtractor.extract(input);
    expect(rows(result.dependencies)).toEqual([
      [
        'legacy-app',
        '0.3.1',
        'self',
        false,
        'resolved',
        null,
        [],
        'path .',
        'pkg:npm/legacy-app@0.3.1',
      ],
      ...V5,
    ]);
  });

  it('describes the lockfile version', () => {
    expect(pnpmLockExtractor.describe?.(inputOf('pnpm-lock.yaml', fixture('pnpm-v5.yaml')))).toBe(
      'pnpm-lock.yaml v5.4',
    );
    expect(
      pnpmLockExtractor.describe?.(inputOf('pnpm-lock.yaml', fixture('pnpm-v9-peers.yaml'))),
    ).toBe('pnpm-lock.yaml v9.0');
  });
});

describe('npm/pnpm-lock details', () => {
  it('git resolutions and scoped v5 keys', () => {
    const text = [
      "lockfileVersion: '9.0'",
      'importers:',
      '  .:',
      '    dependencies:',
      '      tool: {specifier: github:acme/tool, version: git+https://github.com/acme/tool.git#abc123}',
      'packages:',
      '  tool@git+https://github.com/acme/tool.git#abc123:',
      '    resolution: {type: git, repo: https://github.com/acme/tool.git, commit: abc123}',
      '    version: 1.0.0',
      'snapshots:',
      '  tool@git+https://github.com/acme/tool.git#abc123: {}',
    ].join('\n');
    expect(rows(extract(text).dependencies)).toEqual([
      [
        'tool',
        '1.0.0',
        'runtime',
        true,
        'resolved',
        7,
        [],
        'git https://github.com/acme/tool.git#abc123',
        'pkg:npm/tool@1.0.0?vcs_url=https%3A%2F%2Fgithub.com%2Facme%2Ftool.git',
      ],
    ]);
    const v5 =
      'lockfileVersion: 5.3\npackages:\n  /@scope/pkg/1.2.3_peer@1.0.0:\n    resolution: {integrity: x}\n';
    expect(extract(v5).dependencies.map((d) => `${d.name}@${d.version}`)).toEqual([
      '@scope/pkg@1.2.3',
    ]);
  });

  it('one bad entry is skipped with its line; a snapshot without a package is reported', () => {
    const text = [
      "lockfileVersion: '9.0'",
      'packages:',
      '  a@1.0.0: {resolution: {integrity: x}}',
      '  b@2.0.0: [oops]',
      // A key that plain assignment would turn into a prototype change is just a bad entry.
      '  __proto__: {resolution: {integrity: x}}',
      'snapshots:',
      '  a@1.0.0: {}',
      '  ghost@9.9.9: {}',
    ].join('\n');
    const result = extract(text);
    expect(result.errors).toEqual([
      { line: 4, message: 'packages["b@2.0.0"] is not a mapping; skipped' },
      { line: 5, message: 'cannot tell the package name of __proto__; skipped' },
      { line: 8, message: 'snapshot ghost@9.9.9 has no packages entry; skipped' },
    ]);
    expect(result.dependencies.map((d) => d.name)).toEqual(['a']);
  });

  it('not YAML, not a mapping, no lockfileVersion: one whole-file error each', () => {
    expect(extract('{{{{ not yaml')).toEqual({
      dependencies: [],
      errors: [
        {
          line: null,
          message:
            'not a pnpm lockfile: invalid YAML: Flow map in block collection must be sufficiently indented and end with a }',
        },
      ],
    });
    expect(extract('- a\n- list\n').errors).toEqual([
      { line: null, message: 'not a pnpm lockfile: not a `key: value` entry' },
    ]);
    expect(extract('packages:\n  a@1.0.0: {}\n').errors).toEqual([
      { line: null, message: 'lockfileVersion is missing or not a number' },
    ]);
  });

  it('a truncated file: a whole-file error, the cut entry by line, the rest kept', () => {
    const text = fixture('pnpm-v9-peers.yaml');
    const cut = text.slice(
      0,
      text.indexOf('  loose-envify@1.4.0:') +
        '  loose-envify@1.4.0:\n    resolution: {integ'.length,
    );
    const result = extract(cut);
    expect(result.errors).toEqual([
      { line: null, message: 'invalid YAML in one entry; the other entries were read' },
      {
        line: 66,
        message:
          'invalid YAML: Flow map in block collection must be sufficiently indented and end with a }; skipped',
      },
    ]);
    expect(result.dependencies.map((d) => d.name)).toEqual([
      '@testing-library/react',
      'debug',
      'eslint',
      'fsevents',
    ]);
  });

  it('refuses custom tags and alias bombs', () => {
    // Unknown tags build nothing: the tagged scalar stays a string, the tagged map plain data.
    const tagged = extract(
      "lockfileVersion: '9.0'\npackages:\n  a@1.0.0: !!js/function 'return 1'\n  b@1.0.0: !custom {resolution: {integrity: x}}\n",
    );
    expect(tagged.errors).toEqual([
      { line: 3, message: 'packages["a@1.0.0"] is not a mapping; skipped' },
    ]);
    expect(rows(tagged.dependencies)).toEqual([
      ['b', '1.0.0', 'runtime', true, 'resolved', 4, [], 'registry', 'pkg:npm/b@1.0.0'],
    ]);
    const lines = ["lockfileVersion: '9.0'", 'packages:', '  a@1.0.0:', '    x0: &a0 [lol]'];
    for (let i = 1; i < 12; i++)
      lines.push(
        `    x${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(',')}]`,
      );
    lines.push('    resolution: *a11');
    const bomb = extract(lines.join('\n'));
    expect(bomb.dependencies).toEqual([]);
    expect(bomb.errors).toEqual([
      { line: 3, message: 'Excessive alias count indicates a resource exhaustion attack; skipped' },
    ]);
  });

  it('claims pnpm-lock.yaml only', () => {
    expect(pnpmLockExtractor.matches('pnpm-lock.yaml')).toBe(true);
    expect(pnpmLockExtractor.matches('web/ui/pnpm-lock.yaml')).toBe(true);
    expect(pnpmLockExtractor.matches('pnpm-workspace.yaml')).toBe(false);
  });
});
