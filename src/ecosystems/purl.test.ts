import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED_DATA_MISSING, sharedDataDir } from '../../test/support/shared-data';
import { extractPath } from './extract-tree';
import { buildPurl, libraryPurl } from './purl';

describe('buildPurl', () => {
  it.each<[string, string | null, Record<string, string> | undefined, string]>([
    ['lodash', '4.17.21', undefined, 'pkg:npm/lodash@4.17.21'],
    ['@babel/core', '7.24.0', undefined, 'pkg:npm/%40babel/core@7.24.0'],
    ['left-pad', null, undefined, 'pkg:npm/left-pad'],
    ['pkg', '1.0.0-rc.1+build.5', undefined, 'pkg:npm/pkg@1.0.0-rc.1+build.5'],
    ['JSONStream', '1.3.5', undefined, 'pkg:npm/jsonstream@1.3.5'],
    ['a', '1.0.0', { vcs_url: 'git+https://example.test/a.git' }, ''],
    ['@Scope/Name', '1.0.0', undefined, ''],
    ['name', '1.0.0 || 2', undefined, ''],
    ['naïve', '1.0.0', undefined, ''],
    ['_private', '1.0.0', undefined, ''],
    ['x'.repeat(215), '1.0.0', undefined, ''],
  ])('npm %s@%s is spelt as packageurl-js spells it', (name, version, qualifiers, expected) => {
    const built = buildPurl('npm', name, version, qualifiers);
    expect(built).toBe(libraryPurl('npm', name, version, qualifiers));
    if (expected) expect(built).toBe(expected);
  });

  it('other types go through packageurl-js', () => {
    expect(buildPurl('pypi', 'Django_Rest', '3.0')).toBe('pkg:pypi/django-rest@3.0');
    expect(buildPurl('maven', 'org.apache:commons', '1.0')).toBe(
      'pkg:maven/org.apache/commons@1.0',
    );
  });
});

describe.skipIf(!sharedDataDir)(
  `buildPurl shortcut on the corpus${sharedDataDir ? '' : ` (skipped: ${SHARED_DATA_MISSING})`}`,
  () => {
    it('every npm dependency of ../shared/data gets the purl packageurl-js spells', async () => {
      let checked = 0;
      for (const dir of ['lockfiles', 'generated']) {
        const tree = await extractPath(join(sharedDataDir!, dir));
        for (const file of tree.files) {
          if (file.ecosystem !== 'npm') continue;
          for (const dep of file.dependencies) {
            const version = dep.resolution === 'resolved' ? dep.version : null;
            const purl = buildPurl('npm', dep.name, version);
            expect(purl).toBe(libraryPurl('npm', dep.name, version));
            checked++;
          }
        }
      }
      expect(checked).toBeGreaterThan(5000);
    }, 120_000);
  },
);
