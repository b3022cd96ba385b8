import { expect, it } from 'vitest';
import { corpusRunner, describeCorpus } from '../../../test/support/corpus';
import { nuget } from './index';

const run = corpusRunner(nuget);

describeCorpus('NuGet', () => {
  // SOURCES.md counts every entry of the (single) net10.0 section, Project entries included:
  // they are reported too, as `path` sources without a version (14 / 5 / 10 of them).
  it.each([
    ['server/src/Api/packages.lock.json', 167, 14],
    ['server/src/Core/packages.lock.json', 145, 5],
    ['server/src/Identity/packages.lock.json', 156, 10],
  ])('%s: %i entries (%i projects), no errors', (path, count, projects) => {
    const { extractor, result, ms } = run(path);
    expect(extractor.name).toBe('nuget/packages-lock');
    expect(result.errors).toEqual([]);
    expect(result.dependencies).toHaveLength(count);
    expect(result.dependencies.filter((d) => d.source.kind === 'path')).toHaveLength(projects);
    expect(ms).toBeLessThan(1000);
  });

  it.each([
    ['server/src/Api/Api.csproj', 4],
    ['server/src/Core/Core.csproj', 46],
    ['server/src/Identity/Identity.csproj', 0],
    ['server/Directory.Build.props', 0],
  ])('%s: %i PackageReferences, no errors', (path, count) => {
    const { extractor, result, ms } = run(path);
    expect(extractor.name).toBe('nuget/msbuild-project');
    expect(result.errors).toEqual([]);
    expect(result.dependencies).toHaveLength(count);
    // every bitwarden reference is an exact [x.y.z] pin
    expect(result.dependencies.every((d) => d.resolution === 'resolved')).toBe(true);
    expect(ms).toBeLessThan(1000);
  });

  it('lockfile and project agree on the direct references of Core', () => {
    const lock = run('server/src/Core/packages.lock.json').result.dependencies;
    const project = run('server/src/Core/Core.csproj').result.dependencies;
    const directInLock = new Set(
      lock.filter((d) => d.direct && d.source.kind === 'registry').map((d) => d.name),
    );
    for (const dep of project) expect(directInLock.has(dep.name)).toBe(true);
  });
});
