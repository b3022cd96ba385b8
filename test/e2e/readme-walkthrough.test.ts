import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createScratchDatabase,
  type ServiceProcess,
  serviceEnv,
  startServiceProcess,
} from '../support/service-process';

/**
 * The README's walkthrough ("A first repository, end to end"), run as written: the fenced block
 * between the walkthrough markers is extracted from README.md, its `#>` lines become the expected
 * output, and the rest runs in bash, in its order, in a temporary directory against a started
 * `driftwatch serve` — on the embedded database and, with TEST_DATABASE_URL, on PostgreSQL. The
 * README and this test cannot drift: a changed command is the command run, and a changed `#>`
 * line is the output checked.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const serverUrl = process.env.TEST_DATABASE_URL;

/** The placeholders of the walkthrough's first line, replaced by the started service's own. */
const ADDRESS_PLACEHOLDER = 'http://127.0.0.1:8080';
const TOKEN_PLACEHOLDER = 'dw_…';

interface Walkthrough {
  script: string;
  expected: string[];
}

function readWalkthrough(readme: string): Walkthrough {
  const section = /<!-- walkthrough:start -->([\s\S]*?)<!-- walkthrough:end -->/.exec(readme)?.[1];
  if (!section) throw new Error('README.md has no walkthrough markers');
  const blocks = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const lines = blocks.join('\n').split('\n');
  return {
    script: lines.filter((line) => !line.startsWith('#>')).join('\n'),
    expected: lines.filter((line) => line.startsWith('#> ')).map((line) => line.slice(3)),
  };
}

/** An expected line as a whole-line pattern: `…` stands for anything. */
function linePattern(expected: string): RegExp {
  const parts = expected.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`);
}

/** The expected lines, each found after the one before it. */
function missingInOrder(output: string, expected: string[]): string[] {
  const lines = output.split('\n');
  let at = 0;
  const missing: string[] = [];
  for (const line of expected) {
    const pattern = linePattern(line);
    const found = lines.findIndex((candidate, index) => index >= at && pattern.test(candidate));
    if (found === -1) missing.push(line);
    else at = found + 1;
  }
  return missing;
}

/**
 * A working directory like the project's for the walkthrough: `examples/` of the checkout, and
 * `npx driftwatch` running the checkout's command as it does inside the project (other `npx`
 * calls are refused: the test never reaches a registry).
 */
function prepareWorkDirectory(): { dir: string; bin: string } {
  const dir = mkdtempSync(join(tmpdir(), 'dw-readme-'));
  symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'));
  const bin = join(dir, '.bin');
  mkdirSync(bin);
  const npx = join(bin, 'npx');
  writeFileSync(
    npx,
    `#!/bin/sh\nif [ "$1" = driftwatch ]; then shift; exec "${process.execPath}" "${join(ROOT, 'cli', 'driftwatch.cjs')}" "$@"; fi\necho "npx $1: not available in this test" >&2\nexit 127\n`,
  );
  chmodSync(npx, 0o755);
  return { dir, bin };
}

describe.each([
  ['embedded', false],
  ['PostgreSQL', true],
])('the README walkthrough on the %s database', (_name, onPostgres) => {
  const run = !onPostgres || Boolean(serverUrl);
  let work: { dir: string; bin: string };
  let dataDir: string;
  let env: NodeJS.ProcessEnv;
  let service: ServiceProcess;
  let dropDatabase = async () => {};

  beforeAll(async () => {
    if (!run) return;
    work = prepareWorkDirectory();
    dataDir = mkdtempSync(join(tmpdir(), 'dw-readme-data-'));
    // LOG_LEVEL info: the start-up steps and the request lines are checked too (JSON: no TTY).
    const extra: Record<string, string> = {
      DATA_DIR: dataDir,
      SCAN_HEARTBEAT_SECONDS: '1',
      LOG_LEVEL: 'info',
    };
    if (onPostgres && serverUrl) {
      // An empty database and no master key: the first start creates the tenant and the key.
      const scratch = await createScratchDatabase(serverUrl);
      dropDatabase = scratch.drop;
      Object.assign(extra, { DATABASE_URL: scratch.url, SCAN_ALLOW_FILE_URLS: 'true' });
    }
    env = serviceEnv(extra);
    service = await startServiceProcess(env);
  }, 180_000);
  afterAll(async () => {
    if (service && service.child.exitCode === null) {
      service.child.kill('SIGTERM');
      await service.exited;
    }
    await dropDatabase();
    if (work) rmSync(work.dir, { recursive: true, force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it.runIf(run)(
    'runs as written and ends with the finding it promises',
    async () => {
      expect(service.bootstrapToken).toMatch(/^dw_/);
      expect(service.output()).toContain(`Master key: ${join(dataDir, 'master.key')}`);
      const { script, expected } = readWalkthrough(README);
      expect(script).toContain(ADDRESS_PLACEHOLDER);
      expect(script).toContain(TOKEN_PLACEHOLDER);
      const runnable = script
        .replace(ADDRESS_PLACEHOLDER, service.base)
        .replace(TOKEN_PLACEHOLDER, service.bootstrapToken as string);
      // One stream, in the order a terminal shows it: standard error joins standard output.
      const outcome = await promisify(execFile)(
        'bash',
        ['-euo', 'pipefail', '-c', `exec 2>&1\n${runnable}`],
        {
          cwd: work.dir,
          env: { ...env, PATH: `${work.bin}:${env.PATH}` },
          timeout: 200_000,
        },
      ).catch((error: { stdout: string; code: number }) => {
        throw new Error(`the walkthrough failed (${error.code}):\n${error.stdout}`);
      });
      expect(missingInOrder(outcome.stdout, expected), outcome.stdout).toEqual([]);
      expect(outcome.stdout).toContain('requests 2.31.0 CVE-2024-35195');
      const log = service.output();
      const steps = onPostgres
        ? ['connecting to PostgreSQL at', 'migrated: ']
        : [
            `creating the embedded database in ${dataDir} (the first start takes a few seconds)`,
            'created the embedded database in',
            'migrated: ',
          ];
      for (const step of [
        ...steps,
        'started the job workers (',
        'listening on http',
        'ready in ',
      ]) {
        expect(log).toContain(step);
      }
      // Each address is said once (Fastify's own "Server listening" lines were a second copy).
      expect(log).not.toContain('Server listening');
      expect(log.split(`listening on ${service.base}`)).toHaveLength(2);
      // One line per request, when it completes: the walkthrough's scan poll is in it once per call.
      expect(log).not.toContain('incoming request');
      expect(log).toMatch(/"msg":"POST \/api\/v1\/repositories\/[0-9a-f-]+\/scan 202 [\d.]+ ms"/);
      // Nothing landed in the working directory: no second database, no key.
      expect(existsSync(join(work.dir, 'data'))).toBe(false);
      expect(existsSync(join(work.dir, 'master.key'))).toBe(false);
    },
    240_000,
  );
});

describe('the walkthrough reader', () => {
  it('finds commands and expected lines in the README', () => {
    const { script, expected } = readWalkthrough(README);
    expect(script).toContain('npx driftwatch admin import-osv examples/advisories/');
    expect(expected.length).toBeGreaterThanOrEqual(4);
    expect(missingInOrder('a\nb 12 c\n', ['b … c'])).toEqual([]);
    expect(missingInOrder('b 12 c\na\n', ['a', 'b … c'])).toEqual(['b … c']);
  });
});
