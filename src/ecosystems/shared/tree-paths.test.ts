import { describe, expect, it } from 'vitest';
import { ancestorDirs, baseOf, dirOf, joinInTree, siblingOf } from './tree-paths';

describe('tree paths', () => {
  it.each([
    ['a/b', '../pom.xml', 'a/pom.xml'],
    ['a/b', '../../pom.xml', 'pom.xml'],
    ['a', '../../pom.xml', null],
    ['', '../pom.xml', null],
    ['a', 'c\\d/pom.xml', 'a/c/d/pom.xml'],
    ['a', '/etc/passwd', null],
    ['a', 'C:/pom.xml', null],
  ])('joinInTree(%j, %j) = %j', (dir, relative, expected) => {
    expect(joinInTree(dir, relative)).toBe(expected);
  });

  it.each([
    ['go.sum', '', 'go.sum', 'go.mod'],
    ['a/b/go.sum', 'a/b', 'go.sum', 'a/b/go.mod'],
  ])('%j: directory %j, name %j, sibling go.mod %j', (path, dir, base, sibling) => {
    expect(dirOf(path)).toBe(dir);
    expect(baseOf(path)).toBe(base);
    expect(siblingOf(path, 'go.mod')).toBe(sibling);
  });

  it('lists ancestor directories up to the root', () => {
    expect(ancestorDirs('a/b/c')).toEqual(['a/b/c', 'a/b', 'a', '']);
    expect(ancestorDirs('')).toEqual(['']);
  });

  it.each([
    ['a', 'https://example.invalid/pom.xml'],
    ['a', 'file:pom.xml'],
  ])('joinInTree(%j, %j) refuses URLs', (dir, ref) => {
    expect(joinInTree(dir, ref)).toBeNull();
  });
});
