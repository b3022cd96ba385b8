// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the fixtures are shell-style ${VAR} text
import { describe, expect, it } from 'vitest';
import {
  imageDependency,
  normaliseImageName,
  parseImageRef,
  parseSubstitutedRef,
} from './image-ref';
import { substitute, UNRESOLVED } from './substitute';

const DIGEST = `sha256:${'ab'.repeat(32)}`;

describe('parseImageRef', () => {
  it.each([
    ['node', { host: null, path: 'node', tag: null, digest: null }],
    ['node:18', { host: null, path: 'node', tag: '18', digest: null }],
    ['library/node:18', { host: null, path: 'node', tag: '18', digest: null }],
    ['docker.io/library/node:18', { host: null, path: 'node', tag: '18', digest: null }],
    [
      'registry.docker.com/library/ruby:3.4',
      { host: null, path: 'ruby', tag: '3.4', digest: null },
    ],
    ['bitnami/redis', { host: null, path: 'bitnami/redis', tag: null, digest: null }],
    ['docker.io/library/a/b', { host: null, path: 'library/a/b', tag: null, digest: null }],
    [
      'quay.io/prometheus/busybox:latest',
      { host: 'quay.io', path: 'prometheus/busybox', tag: 'latest', digest: null },
    ],
    ['localhost:5000/app', { host: 'localhost:5000', path: 'app', tag: null, digest: null }],
    ['localhost/app:1', { host: 'localhost', path: 'app', tag: '1', digest: null }],
    [`alpine@${DIGEST}`, { host: null, path: 'alpine', tag: null, digest: DIGEST }],
    [`alpine:3.20@${DIGEST}`, { host: null, path: 'alpine', tag: '3.20', digest: DIGEST }],
    ['Ghcr.IO/Owner/Repo:Tag', { host: 'ghcr.io', path: 'owner/repo', tag: 'Tag', digest: null }],
  ])('%s', (text, expected) => {
    expect(parseImageRef(text)).toEqual(expected);
  });

  it.each([
    '',
    'a b',
    'node:',
    'node:-x',
    'node@sha256:short',
    '-node',
    'a//b',
    `x:${'1'.repeat(200)}`,
  ])('rejects %j', (text) => {
    expect(parseImageRef(text)).toBeNull();
  });

  it('normalises names to the familiar form', () => {
    expect(normaliseImageName('docker.io/library/node')).toBe('node');
    expect(normaliseImageName('index.docker.io/bitnami/redis')).toBe('bitnami/redis');
    expect(normaliseImageName('Quay.io/A/B')).toBe('quay.io/a/b');
    expect(normaliseImageName(' not an image ')).toBe('not an image');
  });

  it('drops the unknown tag or digest after substitution, but not an unknown name', () => {
    expect(parseSubstitutedRef(`node:${UNRESOLVED}`, UNRESOLVED)).toEqual({
      host: null,
      path: 'node',
      tag: null,
      digest: null,
    });
    expect(parseSubstitutedRef(`node:18@${UNRESOLVED}`, UNRESOLVED)).toEqual({
      host: null,
      path: 'node',
      tag: '18',
      digest: null,
    });
    expect(parseSubstitutedRef(`${UNRESOLVED}/app:1`, UNRESOLVED)).toBe('unknown-name');
  });
});

describe('imageDependency', () => {
  it.each([
    ['node:18', '18', 'resolved', 'pkg:docker/node@18'],
    ['node', null, 'unpinned', 'pkg:docker/node'],
    ['node:latest', null, 'unpinned', 'pkg:docker/node'],
    [`node@${DIGEST}`, DIGEST, 'resolved', `pkg:docker/node@${DIGEST}`],
    [
      `node:latest@${DIGEST}`,
      'latest',
      'resolved',
      `pkg:docker/node@latest?digest=sha256%3A${'ab'.repeat(32)}`,
    ],
    ['quay.io/org/img:1.0', '1.0', 'resolved', 'pkg:docker/org/img@1.0?repository_url=quay.io'],
  ])('%s → %s (%s)', (text, version, resolution, purl) => {
    const dep = imageDependency(parseImageRef(text)!, 'runtime', 3);
    expect(dep).toMatchObject({ version, resolution, purl, line: 3, direct: true, parents: [] });
  });
});

describe('substitute', () => {
  const vars = new Map<string, string | undefined>([
    ['A', '1'],
    ['EMPTY', ''],
    ['UNSET', undefined],
  ]);
  const lookup = (name: string) => vars.get(name);
  it.each([
    ['$A', '1'],
    ['${A}', '1'],
    ['x${A}y$A', 'x1y1'],
    ['${B:-def}', 'def'],
    ['${EMPTY:-def}', 'def'],
    ['${EMPTY-def}', ''],
    ['${A:+alt}', 'alt'],
    ['${B:+alt}', ''],
    ['${B:-${A:-z}}', '1'],
    ['${B}', UNRESOLVED],
    ['$B', UNRESOLVED],
    ['${UNSET:?required}', UNRESOLVED],
    ['${A:?required}', '1'],
    ['${bad name}', UNRESOLVED],
    ['${A', UNRESOLVED],
    ['price $5', 'price $5'],
  ])('%s → %j', (text, expected) => {
    expect(substitute(text, lookup)).toBe(expected);
  });

  it('honours $$ (Compose) and the escape character (Dockerfile)', () => {
    expect(substitute('a$$A', lookup, { dollarDollar: true })).toBe('a$A');
    expect(substitute('a\\$A', lookup, { escape: '\\' })).toBe('a$A');
    expect(substitute('a`$A', lookup, { escape: '`' })).toBe('a$A');
  });

  it('stops expanding absurdly nested defaults', () => {
    const nested = `${'${X:-'.repeat(50)}v${'}'.repeat(50)}`;
    expect(substitute(nested, lookup)).toBe(UNRESOLVED);
  });
});
