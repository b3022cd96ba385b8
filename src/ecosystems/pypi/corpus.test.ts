import { expect, it } from 'vitest';
import { corpusRunner, describeCorpus } from '../../../test/support/corpus';
import { pypi } from './index';

/**
 * The real-world corpus (../shared/data/lockfiles): every PyPI file parses without error and the
 * counts agree with SOURCES.md. Deliberate differences:
 * - uv.lock: SOURCES.md counts 89 `[[package]]` tables; one is the project itself (`uv`,
 *   source editable "."), reported with scope `self`: 89 entries, 88 dependencies.
 * - requirements_git.txt: its 5 entries are VCS lines; they count, as git sources without a
 *   registry version (unpinned), named by `#egg=` or `name @`.
 * - Pipfile and pyproject.toml have no count in SOURCES.md; the counts below were checked by hand
 *   against the files (Pipfile: 1 + 26; poetry: 22 runtime, 14 in groups, 1 build requirement;
 *   uv: 15 in dependency groups, 1 build requirement).
 */

const run = corpusRunner(pypi);

describeCorpus('PyPI', () => {
  it.each([
    ['awx/requirements/requirements.txt', 'pypi/requirements', 160],
    ['awx/requirements/requirements.in', 'pypi/requirements', 70],
    ['awx/requirements/requirements_git.txt', 'pypi/requirements', 5],
    ['awx/requirements/requirements_dev.txt', 'pypi/requirements', 27],
    ['netbox/requirements.txt', 'pypi/requirements', 46],
    ['netbox/base_requirements.txt', 'pypi/requirements', 46],
    ['pipenv/Pipfile.lock', 'pypi/pipfile-lock', 110],
    ['pipenv/Pipfile', 'pypi/pipfile', 27],
    ['poetry/poetry.lock', 'pypi/poetry-lock', 78],
    ['poetry/pyproject.toml', 'pypi/pyproject', 37],
    ['uv/uv.lock', 'pypi/uv-lock', 89],
    ['uv/pyproject.toml', 'pypi/pyproject', 16],
  ])('%s: %s, %i entries, no errors, under a second', (path, name, count) => {
    const { result, ms, extractor } = run(path);
    expect(extractor.name).toBe(name);
    expect(result.errors).toEqual([]);
    expect(result.dependencies).toHaveLength(count);
    expect(ms).toBeLessThan(1000);
    for (const dep of result.dependencies) {
      expect(dep.name).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
      expect(dep.line).not.toBeNull();
      expect(dep.purl.startsWith(`pkg:pypi/${dep.name}`)).toBe(true);
      expect(dep.purl.includes('@')).toBe(dep.resolution === 'resolved');
    }
  });

  it('awx pip-compile output: `# via` gives edges to entries of the compiled inputs', () => {
    const deps = run('awx/requirements/requirements.txt').result.dependencies;
    // pip-compile also read requirements_git.txt, whose packages appear as parents
    const git = run('awx/requirements/requirements_git.txt').result.dependencies;
    const names = new Set([...deps, ...git].map((d) => d.name));
    expect(deps.every((d) => d.resolution === 'resolved' || d.source.kind === 'git')).toBe(true);
    expect(deps.filter((d) => d.direct)).toHaveLength(73);
    for (const dep of deps) for (const parent of dep.parents) expect(names).toContain(parent);
    expect(deps.find((d) => d.name === 'adal')).toMatchObject({
      direct: false,
      parents: ['msrestazure'],
    });
  });

  it('awx requirements_git.txt: the five VCS lines are git sources', () => {
    const deps = run('awx/requirements/requirements_git.txt').result.dependencies;
    expect(deps.map((d) => [d.name, d.source.kind, d.resolution])).toEqual([
      ['certifi', 'git', 'unpinned'],
      ['ansible-runner', 'git', 'unpinned'],
      ['django-ansible-base', 'git', 'unpinned'],
      ['awx-plugins-core', 'git', 'unpinned'],
      ['awx-plugins-interfaces', 'git', 'unpinned'],
    ]);
  });

  it('lockfiles mark direct entries from their manifests and keep edges inside the lock', () => {
    const pipenv = run('pipenv/Pipfile.lock').result.dependencies;
    expect(pipenv.filter((d) => d.direct)).toHaveLength(27); // Pipfile: 1 package + 26 dev-packages
    const poetry = run('poetry/poetry.lock').result.dependencies;
    expect(poetry.filter((d) => d.direct)).toHaveLength(35); // 36 names in pyproject, dulwich twice
    const uv = run('uv/uv.lock').result.dependencies;
    expect(uv.filter((d) => d.direct)).toHaveLength(15);
    expect(uv.filter((d) => d.scope === 'self').map((d) => d.name)).toEqual(['uv']);
    for (const deps of [poetry, uv]) {
      const names = new Set(deps.map((d) => d.name));
      for (const dep of deps) for (const parent of dep.parents) expect(names).toContain(parent);
    }
  });
});
