// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the fixtures are shell-style ${VAR} text
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { ExtractedDependency } from '../types';
import { composeExtractor, extractCompose } from './extract-compose';

const fixture = (name: string) =>
  readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const run = (name: string, text = fixture(name)) =>
  extractCompose({ path: name, text, readFile: () => null });

function image(
  name: string,
  version: string | null,
  line: number,
  purl: string,
): ExtractedDependency {
  return {
    name,
    version,
    purl,
    scope: 'runtime',
    direct: true,
    resolution: version === null ? 'unpinned' : 'resolved',
    line,
    parents: [],
    source: { kind: 'registry' },
  };
}

describe('docker/compose', () => {
  it('claims compose files by name', () => {
    const yes = [
      'docker-compose.yml',
      'x/docker-compose.override.yaml',
      'docker-compose-dev.yml',
      'compose.yaml',
      'compose.prod.yml',
    ];
    const no = [
      'composer.json',
      'composer.yml',
      'compose.json',
      'my-compose.yml',
      'docker-compose.yml.bak',
    ];
    expect(yes.every(composeExtractor.matches)).toBe(true);
    expect(no.some(composeExtractor.matches)).toBe(false);
  });

  it('reads services.*.image with defaults substituted, skipping built services', () => {
    expect(run('docker-compose.yml')).toEqual({
      dependencies: [
        image('postgres', '16.3', 7, 'pkg:docker/postgres@16.3'),
        image('redis', '7.2.4-alpine', 11, 'pkg:docker/redis@7.2.4-alpine'),
        image('traefik', 'v3.0', 19, 'pkg:docker/traefik@v3.0'),
        image('ghcr.io/example/web', null, 21, 'pkg:docker/example/web?repository_url=ghcr.io'),
      ],
      errors: [
        {
          line: 23,
          message:
            'service broken: image ${REGISTRY}/example/api:1.0 needs a variable without a default: skipped',
        },
        {
          line: 25,
          message: 'service money: example/price$$:1 is not an image reference: skipped',
        },
      ],
    });
  });

  it('reads the legacy v1 format (services at the top level)', () => {
    expect(run('compose-v1.yml')).toEqual({
      dependencies: [
        image('nginx', '1.25', 3, 'pkg:docker/nginx@1.25'),
        image('mysql', '5.7', 7, 'pkg:docker/mysql@5.7'),
      ],
      errors: [],
    });
  });

  it('fails an alias bomb as a whole file instead of expanding it', () => {
    expect(run('alias-bomb.yml')).toEqual({
      dependencies: [],
      errors: [
        {
          line: null,
          message:
            'compose file unreadable: Excessive alias count indicates a resource exhaustion attack',
        },
      ],
    });
  });

  it('never builds objects from custom tags', () => {
    expect(run('custom-tag.yml')).toEqual({
      dependencies: [image('nginx', '1.25', 5, 'pkg:docker/nginx@1.25')],
      errors: [
        {
          line: 3,
          message: 'service web: function() { return 1 } is not an image reference: skipped',
        },
      ],
    });
  });

  it('reports invalid YAML with lines and keeps what parsed', () => {
    expect(run('not-yaml.yml')).toEqual({
      dependencies: [image('nginx', '1.25', 3, 'pkg:docker/nginx@1.25')],
      errors: [
        { line: 4, message: 'invalid YAML: All mapping items must start at the same column' },
        {
          line: 5,
          message:
            'invalid YAML: Flow sequence in block collection must be sufficiently indented and end with a ]',
        },
      ],
    });
  });

  it('refuses deeply nested flow collections quickly instead of hanging the parser', () => {
    const started = performance.now();
    expect(run('compose.yaml', '{'.repeat(5000))).toEqual({
      dependencies: [],
      errors: [
        { line: null, message: 'compose file nests collections deeper than 32 levels: not parsed' },
      ],
    });
    expect(performance.now() - started).toBeLessThan(100);
    // Brackets in comments do not count; 32 levels still parse.
    const ok = `# ${'{'.repeat(100)}\nservices: ${'['.repeat(31)}${']'.repeat(31)}\n`;
    expect(run('compose.yaml', ok).errors).toEqual([
      { line: 2, message: '"services" is not a mapping' },
    ]);
  });

  it('ignores services keyed by collections without printing warnings', () => {
    const text = 'services:\n  ? {a: 1}\n  : {image: x}\n  web: {image: "nginx:1"}\n';
    expect(run('compose.yaml', text).dependencies.map((d) => d.purl)).toEqual([
      'pkg:docker/x',
      'pkg:docker/nginx@1',
    ]);
  });

  it.each([
    ['', 'compose file is not a mapping'],
    ['- a\n- b\n', 'compose file is not a mapping'],
    ['services: [1, 2]\n', '"services" is not a mapping'],
  ])('rejects %j as a whole file', (text, message) => {
    expect(run('compose.yaml', text).errors.map((e) => e.message)).toEqual([message]);
  });
});
