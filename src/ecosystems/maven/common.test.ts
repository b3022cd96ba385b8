import { describe, expect, it } from 'vitest';
import { ancestorDirs, classifyMavenVersion, joinTreePath } from './common';

describe('Maven helpers', () => {
  it.each([
    ['1.0', 'resolved'],
    ['1.0-SNAPSHOT', 'resolved'],
    ['4.1.110.Final', 'resolved'],
    ['[1.0,2.0)', 'declared'],
    ['1.+', 'declared'],
    ['+', 'declared'],
    ['latest.release', 'declared'],
    ['LATEST', 'declared'],
    ['RELEASE', 'declared'],
    [`\${lib.version}`, 'declared'],
    ['$muleVersion', 'declared'],
    ['', 'unpinned'],
    [null, 'unpinned'],
  ])('classify(%j) = %s', (version, resolution) => {
    expect(classifyMavenVersion(version)).toBe(resolution);
  });

  it.each([
    ['a/b', '../pom.xml', 'a/pom.xml'],
    ['a/b', '../../pom.xml', 'pom.xml'],
    ['a', '../../pom.xml', null],
    ['', '../pom.xml', null],
    ['a', 'c\\d/pom.xml', 'a/c/d/pom.xml'],
    ['a', '/etc/passwd', null],
    ['a', 'C:/pom.xml', null],
  ])('joinTreePath(%j, %j) = %j', (dir, relative, expected) => {
    expect(joinTreePath(dir, relative)).toBe(expected);
  });

  it('lists ancestor directories up to the root', () => {
    expect(ancestorDirs('a/b/c')).toEqual(['a/b/c', 'a/b', 'a', '']);
    expect(ancestorDirs('')).toEqual(['']);
  });
});
