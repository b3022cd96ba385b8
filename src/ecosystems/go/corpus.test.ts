import { expect, it } from 'vitest';
import { corpusRunner, describeCorpus } from '../../../test/support/corpus';
import { go } from './index';

const run = corpusRunner(go);

describeCorpus('Go', () => {
  // SOURCES.md says 252 for prometheus: its count also took the two indented lines of the
  // `exclude ( … )` block. Excluded versions are not dependencies, so 250 requires remain.
  // The `module` line is reported too, as the project itself (scope self, no version).
  it.each([
    ['prometheus/go.mod', 250, 109, 'github.com/prometheus/prometheus'],
    ['osv-scanner/go.mod', 206, 30, 'github.com/google/osv-scanner/v2'],
  ])('%s: %i requires (%i direct) and %s itself, no errors', (path, count, direct, own) => {
    const { extractor, result, ms } = run(path);
    expect(extractor.name).toBe('go/go-mod');
    expect(result.errors).toEqual([]);
    const [self, ...requires] = result.dependencies;
    expect([self?.name, self?.scope, self?.version]).toEqual([own, 'self', null]);
    expect(requires).toHaveLength(count);
    expect(requires.filter((d) => d.direct)).toHaveLength(direct);
    expect(requires.every((d) => d.resolution === 'resolved')).toBe(true);
    expect(ms).toBeLessThan(1000);
  });

  // SOURCES.md counts go.sum as 482 / 397: the distinct `module version` pairs including the
  // `/go.mod`-only ones. go.mod sits beside each, so go.sum yields nothing; read alone it
  // yields the modules with a zip hash (299 / 273).
  it.each([
    ['prometheus/go.sum', 299],
    ['osv-scanner/go.sum', 273],
  ])('%s: defers to go.mod, alone %i modules', (path, alone) => {
    const beside = run(path);
    expect(beside.result).toEqual({ dependencies: [], errors: [] });
    const { result, ms } = run(path, () => null);
    expect(result.errors).toEqual([]);
    expect(result.dependencies).toHaveLength(alone);
    expect(ms).toBeLessThan(1000);
  });

  it('applies the prometheus replace of cloud.google.com/go only if required', () => {
    const deps = run('prometheus/go.mod').result.dependencies;
    expect(deps.find((d) => d.name === 'github.com/prometheus/common')?.version).toBe('v0.70.1');
    expect(deps.some((d) => d.name === 'cloud.google.com/go')).toBe(false);
  });
});
