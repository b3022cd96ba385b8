import { describe, expect, it } from 'vitest';
import type { PackageMetadata } from '../../ecosystems/registry-types';
import { hasChanges, metadataChanges, type PreviousState } from './changes';

const version = (v: string, yanked = false) => ({
  version: v,
  publishedAtUtc: null,
  deprecated: null,
  yanked,
  prerelease: false,
  licence: null,
});

function metadata(overrides: Partial<PackageMetadata>): PackageMetadata {
  return {
    ecosystem: 'npm',
    name: 'p',
    purl: 'pkg:npm/p',
    versions: [version('1.0.0'), version('1.1.0')],
    latestStable: '1.1.0',
    latest: '1.1.0',
    deprecated: null,
    successor: null,
    licence: null,
    repositoryUrl: null,
    homepage: null,
    description: null,
    maintainers: ['alice'],
    maintainerChanges: [],
    downloads: null,
    fetchedAtUtc: '2026-01-01T00:00:00Z',
    etag: null,
    lastModified: null,
    notModified: false,
    notes: [],
    ...overrides,
  };
}

const previous: PreviousState = {
  deprecated: null,
  maintainers: ['alice'],
  latestStable: '1.1.0',
  yanked: new Set(),
};

describe('catalogue changes', () => {
  it('finds nothing in the same answer', () => {
    expect(hasChanges(metadataChanges(previous, metadata({})))).toBe(false);
  });

  it('finds deprecation, new yanks, maintainer changes and a newer release', () => {
    const change = metadataChanges(
      previous,
      metadata({
        versions: [version('1.0.0', true), version('1.1.0'), version('1.2.0')],
        latestStable: '1.2.0',
        deprecated: 'gone',
        successor: 'q',
        maintainers: ['bob'],
      }),
    );
    expect(change).toEqual({
      deprecated: { message: 'gone', successor: 'q' },
      yanked: ['1.0.0'],
      maintainers: { added: ['bob'], removed: ['alice'] },
      released: { version: '1.2.0', previousVersion: '1.1.0' },
    });
  });

  it('is quiet about what was already so, unknown maintainers and a latest that went back', () => {
    const already = {
      ...previous,
      deprecated: 'old news',
      yanked: new Set(['1.0.0']),
      maintainers: [],
    };
    const change = metadataChanges(
      already,
      metadata({
        versions: [version('1.0.0', true), version('1.1.0')],
        latestStable: '1.0.0',
        deprecated: 'old news',
        maintainers: ['carol'],
      }),
    );
    expect(hasChanges(change)).toBe(false);
  });
});
