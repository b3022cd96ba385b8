import { expect, it } from 'vitest';
import { corpusRunner, describeCorpus } from '../../../test/support/corpus';
import { cargo } from './index';

const run = corpusRunner(cargo);

describeCorpus('Cargo', () => {
  // SOURCES.md counts 753 [[package]] tables; 70 of them have no `source`: uv's own workspace
  // crates, reported as the project itself (scope self). 753 - 70 = 683 third-party crates.
  it('uv/Cargo.lock: 683 third-party crates and 70 own crates, no errors', () => {
    const { extractor, result, ms } = run('uv/Cargo.lock');
    expect(extractor.name).toBe('cargo/cargo-lock');
    expect(result.errors).toEqual([]);
    expect(result.dependencies).toHaveLength(753);
    expect(result.dependencies.filter((d) => d.scope === 'self')).toHaveLength(70);
    expect(result.dependencies.filter((d) => d.direct)).toHaveLength(166);
    expect(result.dependencies.some((d) => d.scope === 'self' && d.direct)).toBe(false);
    expect(result.dependencies.every((d) => d.line !== null && d.resolution === 'resolved')).toBe(
      true,
    );
    // Two locked copies of one crate stay two entries.
    const cpufeatures = result.dependencies.filter((d) => d.name === 'cpufeatures');
    expect(cpufeatures.length).toBeGreaterThan(1);
    expect(ms).toBeLessThan(1000);
  });

  // A virtual manifest: only [workspace.dependencies], 67 of them path dependencies on uv's own
  // crates. No SOURCES.md count for manifests: this pins what the extractor finds today.
  it('uv/Cargo.toml: 223 workspace dependencies, no errors', () => {
    const { extractor, result, ms } = run('uv/Cargo.toml');
    expect(extractor.name).toBe('cargo/cargo-toml');
    expect(result.errors).toEqual([]);
    expect(result.dependencies).toHaveLength(223);
    expect(result.dependencies.filter((d) => d.source.kind === 'path')).toHaveLength(67);
    expect(ms).toBeLessThan(1000);
  });
});
