import { describe, expect, it } from 'vitest';
import { dep, extractorFixtures } from '../../../test/support/extractor-fixtures';
import {
  extractRequirements,
  fileScope,
  logicalLines,
  requirementsExtractor,
} from './extract-requirements';

const { fixtureInput } = extractorFixtures('pypi');

const git = (url: string, ref: string | null) => ({ kind: 'git' as const, url, ref });

describe('pypi/requirements', () => {
  it.each([
    ['requirements.txt', true],
    ['requirements-dev.txt', true],
    ['requirements_test.txt', true],
    ['requirements.in', true],
    ['requirements-dev.in', true],
    ['dev-requirements.txt', true],
    ['base_requirements.txt', true],
    ['requirements/base.txt', true],
    ['requirements/prod.in', true],
    ['app/requirements/dev.txt', true],
    ['svc/Requirements.txt', true],
    ['constraints.txt', false],
    ['requirements.txt.bak', false],
    ['docs/conf.txt', false],
    ['requirementsfoo/x.txt', false],
    ['pyproject.toml', false],
  ])('claims %s: %s', (path, claimed) => {
    expect(requirementsExtractor.matches(path)).toBe(claimed);
  });

  it.each([
    ['requirements.txt', 'runtime'],
    ['requirements-dev.txt', 'development'],
    ['requirements_dev.txt', 'development'],
    ['requirements/docs.txt', 'development'],
    ['test-requirements.txt', 'test'],
    ['requirements/tests.in', 'test'],
    ['requirements/build.txt', 'build'],
    ['requirements_git.txt', 'runtime'],
    ['base_requirements.txt', 'runtime'],
  ])('scope of %s is %s', (path, scope) => {
    expect(fileScope(path)).toBe(scope);
  });

  it('joins continuations, ends them at a comment line, and splits comments', () => {
    expect(logicalLines('a==1 \\\n  --hash=x\n# c \\\nb  # note\nurl#frag\n')).toEqual([
      { content: 'a==1   --hash=x', comment: null, indented: false, line: 1 },
      { content: '', comment: ' c \\', indented: false, line: 3 },
      { content: 'b', comment: ' note', indented: false, line: 4 },
      { content: 'url#frag', comment: null, indented: false, line: 5 },
      { content: '', comment: null, indented: false, line: 6 },
    ]);
  });

  it('reads pins, ranges, extras, markers and options, reporting bad lines', () => {
    const result = extractRequirements(fixtureInput('requirements-basic.txt', 'requirements.txt'));
    const runtime = { scope: 'runtime' as const, direct: true };
    expect(result.dependencies).toEqual([
      dep({
        ...runtime,
        name: 'django',
        version: '4.2.16',
        purl: 'pkg:pypi/django@4.2.16',
        resolution: 'resolved',
        line: 6,
      }),
      dep({
        ...runtime,
        name: 'requests',
        version: '>=2.31,<3',
        purl: 'pkg:pypi/requests',
        resolution: 'declared',
        line: 7,
      }),
      dep({
        ...runtime,
        name: 'psycopg',
        version: '3.3.4',
        purl: 'pkg:pypi/psycopg@3.3.4',
        resolution: 'resolved',
        line: 8,
      }),
      dep({
        ...runtime,
        name: 'flask-login',
        version: null,
        purl: 'pkg:pypi/flask-login',
        resolution: 'unpinned',
        line: 9,
      }),
      dep({
        ...runtime,
        name: 'zope-interface',
        version: '~=6.0',
        purl: 'pkg:pypi/zope-interface',
        resolution: 'declared',
        line: 10,
      }),
      dep({
        ...runtime,
        name: 'importlib-metadata',
        version: '>=4.6',
        purl: 'pkg:pypi/importlib-metadata',
        resolution: 'declared',
        line: 11,
      }),
      dep({
        ...runtime,
        name: 'typing-extensions',
        version: '>=4.5',
        purl: 'pkg:pypi/typing-extensions',
        resolution: 'declared',
        line: 12,
      }),
      dep({
        ...runtime,
        name: 'pytz',
        version: '2024.1',
        purl: 'pkg:pypi/pytz@2024.1',
        resolution: 'resolved',
        line: 13,
      }),
      // line 14 repeats Django==4.2.16 exactly: deduplicated
      dep({
        ...runtime,
        name: 'urllib3',
        version: '>=1.26,!=2.0.*',
        purl: 'pkg:pypi/urllib3',
        resolution: 'declared',
        line: 15,
      }),
      dep({
        ...runtime,
        name: 'six',
        version: '1.16.0',
        purl: 'pkg:pypi/six@1.16.0',
        resolution: 'resolved',
        line: 16,
      }),
      dep({
        ...runtime,
        name: 'colorama',
        version: '0.4.6',
        purl: 'pkg:pypi/colorama@0.4.6',
        resolution: 'resolved',
        line: 19,
      }),
    ]);
    expect(result.errors).toEqual([
      { line: 21, message: "not a requirement: 'not a requirement!'" },
      { line: 22, message: "invalid version '1.0.0.0.a.b' in specifier '==1.0.0.0.a.b'" },
    ]);
  });

  it('strips hashes and reads pip-compile `# via` notes as parents and directness', () => {
    const result = extractRequirements(
      fixtureInput('requirements-with-hashes.txt', 'requirements.txt'),
    );
    const base = { scope: 'runtime' as const, resolution: 'resolved' as const };
    expect(result.dependencies).toEqual([
      dep({
        ...base,
        name: 'certifi',
        version: '2024.8.30',
        purl: 'pkg:pypi/certifi@2024.8.30',
        direct: false,
        line: 7,
        parents: ['requests'],
      }),
      dep({
        ...base,
        name: 'charset-normalizer',
        version: '3.4.0',
        purl: 'pkg:pypi/charset-normalizer@3.4.0',
        direct: false,
        line: 11,
        parents: ['requests'],
      }),
      dep({
        ...base,
        name: 'idna',
        version: '3.10',
        purl: 'pkg:pypi/idna@3.10',
        direct: false,
        line: 14,
        parents: ['requests'],
      }),
      dep({
        ...base,
        name: 'requests',
        version: '2.32.3',
        purl: 'pkg:pypi/requests@2.32.3',
        direct: true,
        line: 17,
      }),
      dep({
        ...base,
        name: 'urllib3',
        version: '2.2.3',
        purl: 'pkg:pypi/urllib3@2.2.3',
        direct: true,
        line: 20,
        parents: ['requests'],
      }),
    ]);
    expect(result.errors).toEqual([]);
    expect(
      requirementsExtractor.describe?.(fixtureInput('requirements-with-hashes.txt', 'r.txt')),
    ).toBe('requirements (pip-compile)');
  });

  it('reports VCS, URL, editable and local path lines with their sources', () => {
    const result = extractRequirements(
      fixtureInput('requirements-vcs-and-urls.txt', 'requirements.txt', 'local-projects'),
    );
    const base = { scope: 'runtime' as const, direct: true };
    const unpinned = { ...base, version: null, resolution: 'unpinned' as const };
    expect(result.dependencies).toEqual([
      dep({
        ...unpinned,
        name: 'certifi',
        purl: 'pkg:pypi/certifi',
        line: 1,
        source: git('https://github.com/example/system-certifi.git', 'devel'),
      }),
      dep({
        ...unpinned,
        name: 'ansible-runner',
        purl: 'pkg:pypi/ansible-runner',
        line: 2,
        source: git('https://github.com/example/runner.git', 'v2.1.0'),
      }),
      dep({
        ...unpinned,
        name: 'base-lib',
        purl: 'pkg:pypi/base-lib',
        line: 3,
        source: git('https://github.com/example/base-lib', 'devel'),
      }),
      dep({
        ...unpinned,
        name: 'plugins-core',
        purl: 'pkg:pypi/plugins-core',
        line: 4,
        source: git('https://git@github.com/example/plugins.git', 'devel'),
      }),
      dep({
        ...unpinned,
        name: 'interfaces',
        purl: 'pkg:pypi/interfaces',
        line: 5,
        source: git('ssh://git@github.com/example/interfaces.git', null),
      }),
      dep({
        ...base,
        name: 'wheelpkg',
        version: '1.4.0',
        purl: 'pkg:pypi/wheelpkg@1.4.0',
        resolution: 'resolved',
        line: 6,
        source: {
          kind: 'url',
          url: 'https://files.example.invalid/wheelpkg-1.4.0-py3-none-any.whl',
        },
      }),
      dep({
        ...base,
        name: 'other-pkg',
        version: '2.0.1',
        purl: 'pkg:pypi/other-pkg@2.0.1',
        resolution: 'resolved',
        line: 7,
        source: {
          kind: 'url',
          url: 'https://files.example.invalid/packages/Other_Pkg-2.0.1.tar.gz',
        },
      }),
      dep({
        ...unpinned,
        name: 'mercurial-thing',
        purl: 'pkg:pypi/mercurial-thing',
        line: 8,
        source: { kind: 'url', url: 'hg+https://hg.example.invalid/repo#egg=mercurial-thing' },
      }),
      dep({
        ...base,
        name: 'localdep',
        version: '0.3.0',
        purl: 'pkg:pypi/localdep@0.3.0',
        resolution: 'resolved',
        line: 9,
        source: { kind: 'path', path: './vendor/localdep-0.3.0-py3-none-any.whl' },
      }),
      // -e ./libs/named-lib: the name comes from that project's pyproject.toml; `--editable .`
      // (line 11) is the project itself and no dependency
      dep({
        ...unpinned,
        name: 'named-lib',
        purl: 'pkg:pypi/named-lib',
        line: 10,
        source: { kind: 'path', path: './libs/named-lib' },
      }),
      dep({
        ...unpinned,
        name: 'tooling',
        purl: 'pkg:pypi/tooling',
        line: 12,
        source: { kind: 'path', path: './tools' },
      }),
      dep({
        ...base,
        name: 'fileref',
        version: '1.0.0',
        purl: 'pkg:pypi/fileref@1.0.0',
        resolution: 'resolved',
        line: 13,
        source: { kind: 'path', path: '/opt/wheels/fileref-1.0.0-py3-none-any.whl' },
      }),
    ]);
    expect(result.errors).toEqual([
      {
        line: 14,
        message:
          "cannot tell the package name of 'git+https://github.com/example/nameless.git' (add #egg=name)",
      },
      { line: 15, message: "cannot tell the package name of './libs/unnamed' (add #egg=name)" },
    ]);
  });

  it('follows -r and -c inside the tree: constraints narrow, never add, and cycles stop', () => {
    const result = extractRequirements(
      fixtureInput(
        'requirements-includes/requirements.txt',
        'requirements.txt',
        'requirements-includes',
      ),
    );
    const base = { scope: 'runtime' as const, direct: true };
    // Entries from an included file carry the line of its `-r` in the extracted file.
    expect(result.dependencies).toEqual([
      dep({
        ...base,
        name: 'requests',
        version: '>=2.0,<3',
        purl: 'pkg:pypi/requests',
        resolution: 'declared',
        line: 2,
      }),
      dep({
        ...base,
        name: 'jinja2',
        version: '3.1.4',
        purl: 'pkg:pypi/jinja2@3.1.4',
        resolution: 'resolved',
        line: 2,
      }),
      dep({
        ...base,
        name: 'attrs',
        version: null,
        purl: 'pkg:pypi/attrs',
        resolution: 'unpinned',
        line: 2,
      }),
      dep({
        ...base,
        name: 'flask',
        version: '>=3.0',
        purl: 'pkg:pypi/flask',
        resolution: 'declared',
        line: 4,
      }),
      dep({
        ...base,
        name: 'itsdangerous',
        version: null,
        purl: 'pkg:pypi/itsdangerous',
        resolution: 'unpinned',
        line: 6,
      }),
      dep({
        ...base,
        name: 'click',
        version: '8.1.7',
        purl: 'pkg:pypi/click@8.1.7',
        resolution: 'resolved',
        line: 6,
      }),
    ]);
    expect(result.errors).toEqual([
      {
        line: 2,
        message:
          'requirements/base.txt:4: include cycle: requirements.txt -> requirements/base.txt -> requirements.txt',
      },
      { line: 2, message: "requirements/base.txt:5: not a requirement: 'broken line here!'" },
      { line: 5, message: "included file 'requirements/missing.txt' not found" },
      {
        line: 6,
        message:
          'requirements/cycle-b.txt:1: include cycle: requirements.txt -> requirements/cycle-a.txt -> requirements/cycle-b.txt -> requirements/cycle-a.txt',
      },
    ]);
  });

  it('gives included entries the scope of the file that declares them', () => {
    const result = extractRequirements(
      fixtureInput(
        'requirements-includes/requirements/test.txt',
        'requirements/test.txt',
        'requirements-includes',
      ),
    );
    expect(result.dependencies.map((d) => [d.name, d.scope, d.line])).toEqual([
      ['requests', 'runtime', 1],
      ['jinja2', 'runtime', 1],
      ['attrs', 'runtime', 1],
      ['flask', 'runtime', 1],
      ['itsdangerous', 'runtime', 1],
      ['click', 'runtime', 1],
      ['pytest', 'test', 2],
    ]);
  });

  it('never reads outside the tree or over the network', () => {
    const asked: string[] = [];
    const result = extractRequirements({
      path: 'requirements.txt',
      text: fixtureInput('include-escaping-tree.txt', 'requirements.txt').text,
      readFile: (p) => {
        asked.push(p);
        return null;
      },
    });
    expect(asked).toEqual([]);
    expect(result.dependencies).toEqual([
      dep({
        name: 'safe',
        version: '1.0',
        purl: 'pkg:pypi/safe@1.0',
        scope: 'runtime',
        direct: true,
        resolution: 'resolved',
        line: 8,
      }),
    ]);
    expect(result.errors).toEqual([
      { line: 1, message: "include '../../etc/passwd.txt' points outside the scanned tree" },
      { line: 2, message: "include '/etc/shadow' points outside the scanned tree" },
      { line: 3, message: "remote include 'https://example.invalid/remote.txt' is not fetched" },
      { line: 4, message: "include '../outside-constraints.txt' points outside the scanned tree" },
      { line: 5, message: "include 'requirements/../../up.txt' points outside the scanned tree" },
      { line: 6, message: "include '..\\outside.txt' points outside the scanned tree" },
      { line: 7, message: 'missing file name after -r' },
    ]);
  });

  it('survives hostile input: empty, binary, huge lines', () => {
    const run = (text: string) =>
      extractRequirements({ path: 'requirements.txt', text, readFile: () => null });
    expect(run('')).toEqual({ dependencies: [], errors: [] });
    expect(run('\uFEFFsix==1.16.0\r\n').dependencies.map((d) => d.purl)).toEqual([
      'pkg:pypi/six@1.16.0',
    ]);
    expect(run('\u0000\u0001\u0002').errors).toHaveLength(1);
    const started = performance.now();
    const long = run(
      `a${'['.repeat(200_000)}\n${'x'.repeat(200_000)}==1 ; ${'('.repeat(100_000)}\n`,
    );
    expect(performance.now() - started).toBeLessThan(1000);
    expect(long.errors).toHaveLength(1);
  });
});
