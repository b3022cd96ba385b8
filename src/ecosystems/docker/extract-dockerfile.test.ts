// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the fixtures are shell-style ${VAR} text
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { DependencyScope, ExtractedDependency, Resolution } from '../types';
import { dockerfileExtractor, extractDockerfile, readInstructions } from './extract-dockerfile';

const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const run = (name: string, text = fixture(name)) =>
  extractDockerfile({ path: name, text, readFile: () => null });

function image(
  name: string,
  version: string | null,
  scope: DependencyScope,
  line: number,
  purl: string,
  resolution: Resolution = version === null ? 'unpinned' : 'resolved',
): ExtractedDependency {
  return {
    name,
    version,
    purl,
    scope,
    direct: true,
    resolution,
    line,
    parents: [],
    source: { kind: 'registry' },
  };
}

describe('docker/dockerfile', () => {
  it('claims Dockerfiles and Containerfiles by name', () => {
    const claims = [
      'Dockerfile',
      'a/b/Dockerfile',
      'Dockerfile.prod',
      'web.Dockerfile',
      'Containerfile',
      'dockerfile',
    ].map(dockerfileExtractor.matches);
    expect(claims.every(Boolean)).toBe(true);
    expect(
      [
        'Dockerfile.dockerignore',
        'Dockerfiles/readme.md',
        'NotADockerfile',
        'docker-compose.yml',
      ].some(dockerfileExtractor.matches),
    ).toBe(false);
  });

  it('multi-stage: aliases are stage references, scratch is nothing, final chain is runtime', () => {
    expect(run('multi-stage.Dockerfile')).toEqual({
      dependencies: [
        image('golang', '1.22.3-alpine', 'build', 5, 'pkg:docker/golang@1.22.3-alpine'),
        image(
          'node',
          '20.11.1-bookworm-slim',
          'build',
          18,
          `pkg:docker/node@20.11.1-bookworm-slim?digest=sha256%3A${'4b7f'.repeat(16)}`,
        ),
        image(
          'ghcr.io/example/tool',
          '2.1',
          'build',
          19,
          'pkg:docker/example/tool@2.1?repository_url=ghcr.io',
        ),
        image('alpine', '3.20', 'runtime', 23, 'pkg:docker/alpine@3.20'),
      ],
      errors: [],
    });
  });

  it('substitutes ARG defaults declared before the first FROM', () => {
    expect(run('arg-defaults.Dockerfile')).toEqual({
      dependencies: [
        image('node', '20-alpine', 'build', 6, 'pkg:docker/node@20-alpine'),
        image('node', '20', 'build', 7, 'pkg:docker/node@20'),
        image('python', null, 'build', 8, 'pkg:docker/python'),
        image('redis', '7.2.4', 'runtime', 10, 'pkg:docker/redis@7.2.4'),
      ],
      errors: [
        {
          line: 9,
          message:
            'FROM ${REGISTRY}/base:1.0: the image name uses an ARG without a default: skipped',
        },
      ],
    });
  });

  it('honours the escape directive for line continuations', () => {
    expect(run('escape-backtick.Dockerfile').dependencies).toEqual([
      image(
        'mcr.microsoft.com/windows/servercore',
        'ltsc2022',
        'build',
        2,
        'pkg:docker/windows/servercore@ltsc2022?repository_url=mcr.microsoft.com',
      ),
      image(
        'mcr.microsoft.com/dotnet/runtime',
        '8.0-nanoserver-ltsc2022',
        'runtime',
        6,
        'pkg:docker/dotnet/runtime@8.0-nanoserver-ltsc2022?repository_url=mcr.microsoft.com',
      ),
    ]);
  });

  it('normalises registries and reports malformed FROM lines one by one', () => {
    expect(run('registry-hosts.Dockerfile')).toEqual({
      dependencies: [
        image('nginx', '1.27', 'build', 1, 'pkg:docker/nginx@1.27'),
        image('bitnami/redis', '7.2', 'build', 2, 'pkg:docker/bitnami/redis@7.2'),
        image(
          'localhost:5000/team/app',
          'v3',
          'build',
          3,
          'pkg:docker/team/app@v3?repository_url=localhost%3A5000',
        ),
        image(
          'quay.io/coreos/etcd',
          'v3.5.0',
          'build',
          4,
          'pkg:docker/coreos/etcd@v3.5.0?repository_url=quay.io',
        ),
        image('ubuntu', null, 'build', 5, 'pkg:docker/ubuntu'),
        image(
          'alpine',
          `sha256:${'0123456789abcdef'.repeat(4)}`,
          'build',
          7,
          `pkg:docker/alpine@sha256:${'0123456789abcdef'.repeat(4)}`,
        ),
      ],
      errors: [
        {
          line: 8,
          message: 'FROM not a valid reference!: expected "FROM image [AS name]": skipped',
        },
        { line: 9, message: 'FROM UPPER CASE:tag: expected "FROM image [AS name]": skipped' },
        { line: 10, message: 'FROM without an image: skipped' },
      ],
    });
  });

  it('keeps heredoc bodies and continuation comments out of the instructions', () => {
    const { instructions } = readInstructions(fixture('multi-stage.Dockerfile'));
    expect(instructions.filter((i) => i.keyword === 'FROM').map((i) => [i.line, i.args])).toEqual([
      [5, '--platform=$BUILDPLATFORM golang:${GO_VERSION}-alpine AS builder'],
      [15, 'builder AS tester'],
      [18, `node:20.11.1-bookworm-slim@sha256:${'4b7f'.repeat(16)} as assets`],
      [21, 'scratch AS empty'],
      [23, '${BASE_REGISTRY}/alpine:3.20 AS final-base'],
      [25, 'final-base'],
    ]);
    expect(instructions.find((i) => i.line === 11)?.args).toBe('go build    -o /out/app ./cmd/app');
  });

  it('handles CRLF line endings, empty files and binary noise without throwing', () => {
    expect(run('Dockerfile', 'FROM node:20\r\nRUN x \\\r\n  y\r\n').dependencies).toEqual([
      image('node', '20', 'runtime', 1, 'pkg:docker/node@20'),
    ]);
    expect(run('Dockerfile', '')).toEqual({ dependencies: [], errors: [] });
    expect(run('Dockerfile', '\u0000\u0001FROM\u0000').dependencies).toEqual([]);
  });

  it('reads a long file with a huge continuation quickly', () => {
    const text = `FROM node:20\nRUN ${'echo x \\\n'.repeat(50_000)}done\n${'FROM alpine:3.20 AS s\n'.repeat(2000)}`;
    const started = performance.now();
    const result = run('Dockerfile', text);
    expect(result.dependencies.map((d) => `${d.name}:${d.version}:${d.scope}`)).toEqual([
      'node:20:build',
      'alpine:3.20:build',
      'alpine:3.20:runtime',
    ]);
    // A hang guard, not a speed measure (bench/ measures speed): about 0.2 s on a loaded 2-core
    // machine; a quadratic join of the continuation lines would take minutes.
    expect(performance.now() - started).toBeLessThan(3000);
  });
});
