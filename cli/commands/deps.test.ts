import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Runs the real bin the way a user does: `node cli/driftwatch.js ...`. */
function driftwatch(...args: string[]) {
  const child = spawnSync(process.execPath, [join(projectRoot, 'cli', 'driftwatch.js'), ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'driftwatch-cli-'));
  const files: Record<string, string> = {
    'composer.json': JSON.stringify({ require: { php: '^8.1', 'monolog/monolog': '^3.0' } }),
    'composer.lock': JSON.stringify(
      { packages: [{ name: 'monolog/monolog', version: '3.7.0', 'notification-url': 'x' }] },
      null,
      4,
    ),
    'deploy/Dockerfile': 'FROM node:20-alpine AS build\nFROM nginx:1.27\n',
    'broken/composer.lock': '{ "packages": [',
    'node_modules/pkg/Dockerfile': 'FROM ignored:1\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('driftwatch deps', () => {
  it('prints the issue JSON shape with --json and exits 0 despite a broken file', () => {
    const { code, stdout } = driftwatch('deps', root, '--json');
    expect(code).toBe(0);
    const result = JSON.parse(stdout);
    expect(result.files.map((f: { path: string }) => f.path)).toEqual([
      'broken/composer.lock',
      'composer.json',
      'composer.lock',
      'deploy/Dockerfile',
    ]);
    expect(result.files[0].errors).toEqual([
      { line: 1, message: 'composer.lock is not valid JSON: Unexpected end of JSON input' },
    ]);
    // The lockfile covers the manifest's only dependency.
    expect(result.files[1].dependencies).toEqual([]);
    expect(result.files[2]).toEqual({
      path: 'composer.lock',
      ecosystem: 'Composer',
      format: 'composer.lock',
      extractor: 'composer/composer-lock',
      dependencies: [
        {
          name: 'monolog/monolog',
          version: '3.7.0',
          purl: 'pkg:composer/monolog/monolog@3.7.0',
          scope: 'runtime',
          direct: true,
          resolution: 'resolved',
          line: 3,
          parents: [],
          source: { kind: 'registry' },
        },
      ],
      errors: [],
    });
    expect(
      result.files[3].dependencies.map((d: { purl: string; scope: string }) => [d.purl, d.scope]),
    ).toEqual([
      ['pkg:docker/node@20-alpine', 'build'],
      ['pkg:docker/nginx@1.27', 'runtime'],
    ]);
  });

  it('prints a readable table per file', () => {
    const { code, stdout } = driftwatch('deps', join(root, 'deploy'));
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'Dockerfile  Docker  Dockerfile  (2 dependencies)',
        '  NAME   VERSION    SCOPE    DIRECT  RESOLUTION  LINE',
        '  node   20-alpine  build    yes     resolved    1',
        '  nginx  1.27       runtime  yes     resolved    2',
        '',
        '1 files, 2 dependencies, 0 errors',
        '',
      ].join('\n'),
    );
  });

  it('says how many dependencies a manifest beside its lockfile declares, and where they went', () => {
    const { code, stdout } = driftwatch('deps', root);
    expect(code).toBe(0);
    expect(stdout).toContain(
      'composer.json  Composer  composer.json  (0 dependencies; declares 1, 1 resolved in composer.lock)\n',
    );
    expect(stdout).toContain('composer.lock  Composer  composer.lock  (1 dependency)\n');
  });

  it('takes --debug, as every command does', () => {
    const { code, stdout, stderr } = driftwatch('deps', join(root, 'deploy'), '--debug');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('Dockerfile  Docker  Dockerfile  (2 dependencies)');
    expect(driftwatch('--debug', 'deps', join(root, 'deploy')).code).toBe(0);
  });

  it('accepts a single file', () => {
    const { code, stdout } = driftwatch('deps', join(root, 'broken', 'composer.lock'));
    expect(code).toBe(0);
    expect(stdout).toContain('composer.lock  Composer  composer.lock  (0 dependencies)');
    expect(stdout).toContain(
      '  error (line 1): composer.lock is not valid JSON: Unexpected end of JSON input',
    );
  });

  it.each([
    [['deps'], 'Usage: driftwatch deps'],
    [['deps', '.', '--frobnicate'], "Unknown option '--frobnicate'"],
    [['deps', 'a', 'b'], 'Usage: driftwatch deps'],
    [['deps', '/definitely/not/here'], 'cannot read /definitely/not/here (ENOENT)'],
    [
      ['deps', '.', '--max-file-size', 'lots'],
      '--max-file-size must be a positive number of bytes',
    ],
    [['frobnicate'], 'unknown command "frobnicate"'],
  ])('exits 2 on %j', (args, message) => {
    const { code, stderr } = driftwatch(...args);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });
});
