import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { SETTINGS } from '../../src/config-settings';
import { PATHS } from '../../src/domains/system/index-routes';

/**
 * The container recipe (Dockerfile, compose.yaml; docs/scaling.md#container-recipe) is never
 * built on these machines, so this keeps it in step with the code: what it copies exists (or
 * `npm run build` makes it), the commands it runs exist, its health check is a real route and
 * the settings it sets are real settings.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

interface Instruction {
  keyword: string;
  args: string;
}

interface Stage {
  image: string;
  name: string | null;
  instructions: Instruction[];
}

/** The Dockerfile's stages and their instructions (continuation lines joined, comments out). */
function parseDockerfile(text: string): Stage[] {
  const lines = text
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [keyword = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (keyword.toUpperCase() === 'FROM') {
      const [image = '', as, name] = rest;
      stages.push({
        image,
        name: as?.toUpperCase() === 'AS' ? (name ?? null) : null,
        instructions: [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`${keyword} before any FROM`);
    stage.instructions.push({ keyword: keyword.toUpperCase(), args });
  }
  return stages;
}

/** A COPY's options, sources and destination (the JSON form is not used here). */
function copyParts(args: string): { from: string | null; sources: string[]; destination: string } {
  const words = args.split(/\s+/);
  const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length) ?? null;
  const paths = words.filter((word) => !word.startsWith('--'));
  return { from, sources: paths.slice(0, -1), destination: paths.at(-1) ?? '' };
}

/** A JSON-array instruction (CMD, ENTRYPOINT, HEALTHCHECK ... CMD) as its words. */
function execForm(args: string): string[] {
  const start = args.indexOf('[');
  const words: unknown = JSON.parse(args.slice(start));
  if (!Array.isArray(words) || !words.every((word) => typeof word === 'string')) {
    throw new Error(`not an exec-form array: ${args}`);
  }
  return words;
}

const SETTING_NAMES = new Set<string>(SETTINGS.map(([name]) => name));
const SCRIPTS: Record<string, string> = JSON.parse(read('package.json')).scripts;
/** The CLI's top-level commands (cli/main.ts) and `serve`'s roles (cli/commands/serve.ts). */
const COMMANDS = new Set(
  [...read('cli/main.ts').matchAll(/^ {2}([a-z-]+): \{$/gm)].map((m) => m[1]),
);
const ROLES = JSON.parse(
  (
    /const ROLES: ServiceRole\[\] = (\[[^\]]*\])/.exec(read('cli/commands/serve.ts'))?.[1] ?? '[]'
  ).replaceAll("'", '"'),
);

/** Problems with `driftwatch <words>`: an unknown command, flag or role. */
function cliProblems(words: string[]): string[] {
  const [command, ...rest] = words;
  if (!command || !COMMANDS.has(command)) return [`unknown command ${command}`];
  if (command !== 'serve') return [];
  if (rest.length === 0) return [];
  if (rest[0] !== '--role' || rest.length !== 2) return [`serve takes --role ROLE, not ${rest}`];
  return ROLES.includes(rest[1]) ? [] : [`unknown role ${rest[1]}`];
}

const dockerfile = parseDockerfile(read('Dockerfile'));
const final = dockerfile.at(-1);

describe('Dockerfile', () => {
  test('multi-stage, every stage on a slim Node 20 image', () => {
    expect(dockerfile.length).toBeGreaterThanOrEqual(2);
    for (const stage of dockerfile) expect(stage.image).toMatch(/^node:20[-.\w]*-slim$/);
  });

  test('every file or folder copied from the context exists; dist/ is what npm run build makes', () => {
    expect(read('scripts/build.mjs')).toContain("const DIST = join(ROOT, 'dist')");
    expect(SCRIPTS.build).toBe('node scripts/build.mjs');
    const missing: string[] = [];
    for (const stage of dockerfile) {
      for (const { keyword, args } of stage.instructions) {
        if (keyword !== 'COPY') continue;
        const { from, sources } = copyParts(args);
        if (from !== null) continue;
        missing.push(...sources.filter((source) => !existsSync(join(ROOT, source))));
      }
    }
    expect(missing).toEqual([]);
  });

  test('a copy from a stage takes what that stage made: its build, its node_modules', () => {
    const copies = dockerfile.flatMap((stage) =>
      stage.instructions.filter((i) => i.keyword === 'COPY').map((i) => copyParts(i.args)),
    );
    const fromStages = copies.filter((copy) => copy.from !== null);
    expect(fromStages.length).toBeGreaterThan(0);
    for (const copy of fromStages) {
      const stage = dockerfile.find((s) => s.name === copy.from);
      expect(stage, `stage ${copy.from}`).toBeDefined();
      const runs = (stage?.instructions ?? [])
        .filter((i) => i.keyword === 'RUN')
        .map((i) => i.args);
      for (const source of copy.sources) {
        if (source === '/app/dist') expect(runs).toContain('npm run build');
        else if (source === '/app/node_modules') {
          expect(runs.some((run) => /^npm ci\b/.test(run))).toBe(true);
        } else throw new Error(`unexpected copy from ${copy.from}: ${source}`);
      }
    }
  });

  test('the final stage holds the compiled build, production node_modules and the launcher only', () => {
    const copies = (final?.instructions ?? [])
      .filter((i) => i.keyword === 'COPY')
      .map((i) => copyParts(i.args));
    expect(copies.map((copy) => [copy.from, ...copy.sources])).toEqual([
      ['deps', '/app/node_modules'],
      ['build', '/app/dist'],
      [null, 'package.json'],
      [null, 'cli/driftwatch.cjs', 'cli/compiled.cjs', 'cli/fast-start.cjs'],
    ]);
    const deps = dockerfile.find((stage) => stage.name === 'deps');
    expect(deps?.instructions.map((i) => i.args)).toContain('npm ci --omit=dev --ignore-scripts');
    // The launcher runs a build without its sources as it is (cli/compiled.cjs).
    expect(read('cli/compiled.cjs')).toContain('!exists(BUILD_SCRIPT) && exists(ENTRY)');
  });

  test('runs as a non-root user', () => {
    const users = (final?.instructions ?? []).filter((i) => i.keyword === 'USER');
    expect(users.length).toBe(1);
    expect(users[0]?.args).not.toMatch(/^(root|0)(:|$)/);
  });

  test('every npm script it runs exists; the entry point and command are real CLI commands', () => {
    for (const stage of dockerfile) {
      for (const { keyword, args } of stage.instructions) {
        const script = keyword === 'RUN' ? /^npm run ([\w:-]+)/.exec(args)?.[1] : undefined;
        if (script) expect(SCRIPTS, script).toHaveProperty(script);
      }
    }
    const entry = execForm(final?.instructions.find((i) => i.keyword === 'ENTRYPOINT')?.args ?? '');
    expect(entry).toEqual(['node', 'cli/driftwatch.cjs']);
    expect(existsSync(join(ROOT, entry[1] ?? ''))).toBe(true);
    const command = execForm(final?.instructions.find((i) => i.keyword === 'CMD')?.args ?? '');
    expect(cliProblems(command)).toEqual([]);
    expect(cliProblems(['serve', '--role', 'nobody'])).toEqual(['unknown role nobody']);
    expect(cliProblems(['nonsense'])).toEqual(['unknown command nonsense']);
  });

  test('the health check asks the readiness route', () => {
    const check = final?.instructions.find((i) => i.keyword === 'HEALTHCHECK')?.args ?? '';
    expect(check).toContain(`'${PATHS.ready}'`);
    expect(PATHS.ready).toBe('/api/v1/ready');
    // The route the readiness plugin registers.
    expect(read('src/domains/system/readiness.ts')).toContain('PATHS.ready,');
  });

  test('every variable it sets is a setting the service reads', () => {
    const set = (final?.instructions ?? [])
      .filter((i) => i.keyword === 'ENV')
      .flatMap((i) => i.args.split(/\s+/).map((pair) => pair.split('=')[0] ?? ''));
    expect(set.length).toBeGreaterThan(0);
    expect(set.filter((name) => !SETTING_NAMES.has(name))).toEqual([]);
  });
});

interface ComposeService {
  image?: string;
  build?: string;
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown>;
  healthcheck?: { disable?: boolean; test?: string[] };
}

describe('compose.yaml', () => {
  const compose: { services: Record<string, ComposeService> } = parse(read('compose.yaml'), {
    merge: true,
  });
  const services = compose.services;

  test('PostgreSQL, Redis, one API and one worker from this image', () => {
    expect(Object.keys(services).sort()).toEqual(['api', 'postgres', 'redis', 'worker']);
    expect(services.postgres?.image).toMatch(/^postgres:/);
    expect(services.redis?.image).toMatch(/^redis:/);
    expect(services.api?.command).toEqual(['serve', '--role', 'api']);
    expect(services.worker?.command).toEqual(['serve', '--role', 'worker']);
    for (const name of ['api', 'worker']) {
      const service = services[name];
      expect(service?.build).toBe('.');
      expect(cliProblems(service?.command ?? [])).toEqual([]);
      expect(Object.keys(service?.depends_on ?? {}).sort()).toEqual(['postgres', 'redis']);
      const env = service?.environment ?? {};
      expect(env.DATABASE_URL).toMatch(/^postgres:\/\/[^@]+@postgres:5432\//);
      expect(env.REDIS_URL).toBe('redis://redis:6379');
      expect(Object.keys(env).filter((key) => !SETTING_NAMES.has(key))).toEqual([]);
    }
  });

  test('the worker, which serves no HTTP, does not inherit the readiness check', () => {
    expect(services.worker?.healthcheck?.disable).toBe(true);
    expect(services.api?.healthcheck).toBeUndefined();
  });
});
