import { describe, expect, it } from 'vitest';
import { fixture, inputOf, type Row, rows } from '../../../test/support/npm-extract';
import { unterminatedStringLine, yarnLockExtractor } from './extract-yarn-lock';

const extract = (path: string, text: string, files: Record<string, string> = {}) =>
  yarnLockExtractor.extract(inputOf(path, text, files));

const MY_FORK_SHA = '5f4c3b2a1d0e9f8a7b6c5d4e3f2a1b0c9d8e7f6a';

const V1_MULTIPLE: Row[] = [
  // The project itself, from the package.json beside the lock (v1 has no line for it).
  ['web', null, 'self', false, 'unpinned', null, [], 'path .', 'pkg:npm/web'],
  // One block, two descriptors: one dependency.
  [
    '@babel/code-frame',
    '7.23.5',
    'runtime',
    true,
    'resolved',
    5,
    [],
    'registry',
    'pkg:npm/%40babel/code-frame@7.23.5',
  ],
  ['chalk', '4.1.2', 'runtime', true, 'resolved', 12, [], 'registry', 'pkg:npm/chalk@4.1.2'],
  // Reached only through chalk's optionalDependencies.
  [
    'fsevents',
    '2.3.3',
    'optional',
    false,
    'resolved',
    21,
    ['chalk'],
    'registry',
    'pkg:npm/fsevents@2.3.3',
  ],
  [
    'has-flag',
    '4.0.0',
    'runtime',
    false,
    'resolved',
    26,
    ['supports-color'],
    'registry',
    'pkg:npm/has-flag@4.0.0',
  ],
  [
    'js-tokens',
    '4.0.0',
    'runtime',
    false,
    'resolved',
    31,
    ['@babel/code-frame'],
    'registry',
    'pkg:npm/js-tokens@4.0.0',
  ],
  [
    'my-fork',
    '2.0.0',
    'runtime',
    true,
    'resolved',
    36,
    [],
    `git git+https://github.com/acme/my-fork.git#${MY_FORK_SHA}`,
    'pkg:npm/my-fork@2.0.0?vcs_url=git%2Bhttps%3A%2F%2Fgithub.com%2Facme%2Fmy-fork.git',
  ],
  // `prettier-2@npm:prettier@^2` (line 40) and `prettier@^2.7.1` (line 45) are one package.
  [
    'prettier',
    '2.8.8',
    'development',
    true,
    'resolved',
    40,
    [],
    'registry',
    'pkg:npm/prettier@2.8.8',
  ],
  [
    'supports-color',
    '7.2.0',
    'runtime',
    false,
    'resolved',
    50,
    ['chalk'],
    'registry',
    'pkg:npm/supports-color@7.2.0',
  ],
];

const BERRY: Row[] = [
  // The workspaces are the project itself (scope self). `0.0.0-use.local` is Yarn's "no version":
  // the member's version comes from its package.json, the root has none.
  [
    '@acme/lib',
    '1.4.0',
    'self',
    false,
    'resolved',
    8,
    [],
    'path packages/lib',
    'pkg:npm/%40acme/lib@1.4.0',
  ],
  ['acme-monorepo', null, 'self', false, 'unpinned', 21, [], 'path .', 'pkg:npm/acme-monorepo'],
  [
    'chalk',
    '4.1.2',
    'runtime',
    true,
    'resolved',
    32,
    ['@acme/lib'],
    'registry',
    'pkg:npm/chalk@4.1.2',
  ],
  // dependenciesMeta optional, and the member's package.json optionalDependencies.
  [
    'fsevents',
    '2.3.3',
    'optional',
    true,
    'resolved',
    41,
    ['@acme/lib'],
    'registry',
    'pkg:npm/fsevents@2.3.3',
  ],
  [
    'my-fork',
    '2.0.0',
    'runtime',
    true,
    'resolved',
    48,
    [],
    `git https://github.com/acme/my-fork.git#${MY_FORK_SHA}`,
    'pkg:npm/my-fork@2.0.0?vcs_url=https%3A%2F%2Fgithub.com%2Facme%2Fmy-fork.git',
  ],
  [
    'resolve',
    '1.22.8',
    'development',
    true,
    'resolved',
    54,
    [],
    'registry',
    'pkg:npm/resolve@1.22.8',
  ],
  [
    'supports-color',
    '7.2.0',
    'runtime',
    false,
    'resolved',
    61,
    ['chalk'],
    'registry',
    'pkg:npm/supports-color@7.2.0',
  ],
  // The `patch:` entry (line 78) is the same typescript@5.3.3 and merges into this one.
  [
    'typescript',
    '5.3.3',
    'development',
    true,
    'resolved',
    68,
    [],
    'registry',
    'pkg:npm/typescript@5.3.3',
  ],
  [
    'vitest',
    '1.6.0',
    'development',
    true,
    'resolved',
    88,
    ['@acme/lib'],
    'registry',
    'pkg:npm/vitest@1.6.0',
  ],
];

const BERRY_FILES = {
  'repo/package.json': fixture('berry-workspace.package.json'),
  'repo/packages/lib/package.json': fixture('berry-workspace.lib.package.json'),
};

describe('npm/yarn-lock v1', () => {
  it('yarn-v1-multiple-descriptors: blocks, aliases, git, optional edges, dev from package.json', () => {
    const result = extract('web/yarn.lock', fixture('yarn-v1-multiple-descriptors.lock'), {
      'web/package.json': fixture('yarn-v1-multiple-descriptors.package.json'),
    });
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual(V1_MULTIPLE);
  });

  it('without package.json: packages nothing depends on are direct, scope unknown is runtime', () => {
    const result = extract('web/yarn.lock', fixture('yarn-v1-multiple-descriptors.lock'));
    const direct = result.dependencies.filter((d) => d.direct).map((d) => d.name);
    expect(direct).toEqual(['@babel/code-frame', 'chalk', 'my-fork', 'prettier']);
    expect(result.dependencies.find((d) => d.name === 'prettier')?.scope).toBe('runtime');
  });

  it('a workspaces root: members cannot be listed, so unreferenced packages count as direct', () => {
    const manifest = JSON.stringify({
      workspaces: ['packages/*'],
      devDependencies: { chalk: '^4.1.0' },
    });
    const result = extract('yarn.lock', fixture('yarn-v1-multiple-descriptors.lock'), {
      'package.json': manifest,
    });
    const summary = result.dependencies.filter((d) => d.direct).map((d) => `${d.name} ${d.scope}`);
    expect(summary).toEqual([
      '@babel/code-frame runtime',
      'chalk development',
      'my-fork runtime',
      'prettier runtime',
    ]);
  });

  it('one broken block: a whole-file error, the block reported by line, the others kept', () => {
    const result = extract('yarn.lock', fixture('yarn-v1-broken-block.lock'));
    expect(result.errors).toEqual([
      { line: null, message: 'invalid yarn.lock: Invalid value type 10:20 in lockfile' },
      { line: 8, message: 'unparseable block: Invalid value type' },
    ]);
    expect(rows(result.dependencies)).toEqual([
      [
        'left-pad',
        '1.3.0',
        'runtime',
        true,
        'resolved',
        4,
        [],
        'registry',
        'pkg:npm/left-pad@1.3.0',
      ],
      ['ms', '2.1.3', 'runtime', true, 'resolved', 14, [], 'registry', 'pkg:npm/ms@2.1.3'],
    ]);
  });

  it('finds a string left open at the end of its line (never handed to the yarn parser)', () => {
    expect(unterminatedStringLine('a@^1:\n  version "1.0.0"\n  resolved "x\\"y"\n')).toBeNull();
    expect(unterminatedStringLine('a@^1:\n  version "1.0.1\nb@^2:\n')).toBe(2);
    expect(unterminatedStringLine('a@^1:\n  version "1.0.1')).toBe(2);
  });

  it('reports a block without a version, and an unresolved merge conflict', () => {
    const noVersion = '# yarn lockfile v1\n\na@^1:\n  resolved "https://r/a/-/a-1.0.0.tgz"\n';
    expect(extract('yarn.lock', noVersion).errors).toEqual([
      { line: 3, message: 'a@^1 has no version; skipped' },
    ]);
    const conflict = [
      'a@^1:',
      '<<<<<<< HEAD',
      '  version "1.0.0"',
      '=======',
      '  version "1.0.1',
      '>>>>>>> branch',
      '',
    ].join('\n');
    const result = extract('yarn.lock', conflict);
    expect(result.errors[0]?.line).toBeNull();
    expect(result.errors[0]?.message).toMatch(/merge conflict|invalid yarn.lock/);
  });
});

describe('npm/yarn-lock berry', () => {
  it('berry-workspace: workspaces, patches, git, dependenciesMeta, dev from each package.json', () => {
    const input = inputOf('repo/yarn.lock', fixture('berry-workspace.lock'), BERRY_FILES);
    expect(yarnLockExtractor.describe?.(input)).toBe('yarn.lock berry (metadata v8)');
    const result = yarnLockExtractor.extract(input);
    expect(result.errors).toEqual([]);
    expect(rows(result.dependencies)).toEqual(BERRY);
  });

  it('without the workspaces package.json files every declaration is runtime', () => {
    const result = extract('repo/yarn.lock', fixture('berry-workspace.lock'));
    expect(result.dependencies.map((d) => d.scope)).toEqual([
      'self',
      'self',
      'runtime',
      'optional',
      'runtime',
      'runtime',
      'runtime',
      'runtime',
      'runtime',
    ]);
  });

  it('truncated and malformed YAML: a whole-file error, the bad entry by line, the rest kept', () => {
    const head =
      '__metadata:\n  version: 8\n\n"a@npm:^1.0.0":\n  version: 1.0.0\n  resolution: "a@npm:1.0.0"\n\n';
    const truncated = extract('yarn.lock', `${head}"b@npm:^2.0.0":\n  version: 2.0.0\n  resol`);
    expect(truncated.errors).toEqual([
      { line: null, message: 'invalid YAML in one entry; the other entries were read' },
      {
        line: 8,
        message: 'invalid YAML: Implicit map keys need to be followed by map values; skipped',
      },
    ]);
    expect(truncated.dependencies.map((d) => `${d.name}@${d.version}`)).toEqual(['a@1.0.0']);
    const badEntries = extract(
      'yarn.lock',
      `${head}"b@npm:^2.0.0": [1, 2]\n"c@npm:^1": {version: 1.0.0}\n`,
    );
    expect(badEntries.errors).toEqual([
      { line: 8, message: 'b@npm:^2.0.0: entry is not a mapping; skipped' },
      { line: 9, message: 'c@npm:^1: no valid "resolution"; skipped' },
    ]);
    expect(extract('yarn.lock', '__metadata:\n- x\n').errors).toEqual([
      { line: 2, message: 'not a `key: value` entry; skipped' },
    ]);
  });

  it('refuses alias bombs inside an entry and aliases across entries', () => {
    const bomb = [
      '__metadata:\n  version: 8',
      '"a@npm:^1.0.0":',
      '  version: 1.0.0',
      '  resolution: "a@npm:1.0.0"',
    ];
    bomb.push('  x0: &a0 [lol]');
    for (let i = 1; i < 12; i++)
      bomb.push(
        `  x${i}: &a${i} [${Array(10)
          .fill(`*a${i - 1}`)
          .join(',')}]`,
      );
    bomb.push('  dependencies: *a11');
    const result = extract('yarn.lock', bomb.join('\n'));
    expect(result.dependencies).toEqual([]);
    expect(result.errors).toEqual([
      { line: 3, message: 'Excessive alias count indicates a resource exhaustion attack; skipped' },
    ]);
    const crossing =
      '__metadata:\n  version: &v 8\n"a@npm:^1":\n  version: *v\n  resolution: "a@npm:1.0.0"\n';
    expect(extract('yarn.lock', crossing).errors).toEqual([
      {
        line: 3,
        message: 'Unresolved alias (the anchor must be set before the alias): v; skipped',
      },
    ]);
  });

  it('claims yarn.lock only', () => {
    expect(yarnLockExtractor.matches('yarn.lock')).toBe(true);
    expect(yarnLockExtractor.matches('a/yarn.lock')).toBe(true);
    expect(yarnLockExtractor.matches('a/yarn.lock.bak')).toBe(false);
    expect(yarnLockExtractor.matches('myyarn.lock')).toBe(false);
    expect(
      yarnLockExtractor.describe?.(inputOf('yarn.lock', fixture('yarn-v1-broken-block.lock'))),
    ).toBe('yarn.lock v1');
  });
});
