import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The layer rules (.dependency-cruiser.cjs, docs/architecture.md#layer-rules) run the way
 * `npm run lint` runs them: the dependency-cruiser command line with the repository's config.
 * Each wrong-way import below is written into a small tree in a temporary directory, and the
 * checker must fail on it naming the rule; the real tree must pass.
 */

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const CONFIG = join(root, '.dependency-cruiser.cjs');
const CLI = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

interface Outcome {
  code: number;
  output: string;
}

async function cruise(cwd: string, wanted: string[]): Promise<Outcome> {
  const targets = wanted.filter((target) => existsSync(join(cwd, target)));
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      [CLI, ...targets, '--config', CONFIG, '--no-progress'],
      { cwd, maxBuffer: 16 * 1024 * 1024 },
    );
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A tree of files (path → source) in a fresh temporary directory, with a tsconfig. */
function tree(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'dw-layering-'));
  made.push(dir);
  const all = {
    'tsconfig.json': JSON.stringify({
      compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', strict: true },
    }),
    // What the wrong-way imports point at.
    'src/domains/widgets/service.ts':
      'export interface Widget { id: string }\nexport const widget = 1;\n',
    'src/config.ts': 'export interface Config { port: number }\n',
    ...files,
  };
  for (const [path, text] of Object.entries(all)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

/** Each case: the rule, the file that breaks it (`from`), and the files that make the case. */
const WRONG_WAY: { case: string; rule: string; from: string; files: Record<string, string> }[] = [
  {
    case: 'http imports a domain',
    rule: 'http-imports-only-core-db-security',
    from: 'src/http/pipeline.ts',
    files: {
      'src/http/pipeline.ts':
        "import { widget } from '../domains/widgets/service';\nexport const x = widget;\n",
    },
  },
  {
    case: 'jobs imports a domain type (type-only imports count)',
    rule: 'jobs-imports-only-core-db',
    from: 'src/jobs/queue.ts',
    files: {
      'src/jobs/queue.ts':
        "import type { Widget } from '../domains/widgets/service';\nexport type W = Widget;\n",
    },
  },
  {
    case: 'intel reads the configuration instead of getting values',
    rule: 'lower-layers-get-values-not-config',
    from: 'src/intel/sync.ts',
    files: {
      'src/intel/sync.ts': "import type { Config } from '../config';\nexport type C = Config;\n",
    },
  },
  {
    case: 'the settings list imports a domain',
    rule: 'config-imports-no-domains',
    from: 'src/config-settings.ts',
    files: {
      'src/config-settings.ts':
        "import { widget } from './domains/widgets/service';\nexport const d = widget;\n",
    },
  },
  {
    case: 'core imports a higher layer',
    rule: 'core-imports-only-itself',
    from: 'src/core/problem.ts',
    files: {
      'src/db/ids.ts': 'export const id = 1;\n',
      'src/core/problem.ts': "import { id } from '../db/ids';\nexport const y = id;\n",
    },
  },
  {
    case: 'one ecosystem reaches into another',
    rule: 'ecosystem-plugins-independent',
    from: 'src/ecosystems/nuget/msbuild.ts',
    files: {
      'src/ecosystems/maven/xml.ts': 'export const parseXml = 1;\n',
      'src/ecosystems/nuget/msbuild.ts':
        "import { parseXml } from '../maven/xml';\nexport const z = parseXml;\n",
    },
  },
  {
    case: 'a domain imports the composition root',
    rule: 'domains-not-to-composition-root',
    from: 'src/domains/widgets/routes.ts',
    files: {
      'src/app.ts':
        "import { widget } from './domains/widgets/service';\nexport const a = widget;\n",
      'src/domains/widgets/routes.ts': "import { a } from '../../app';\nexport const r = a;\n",
    },
  },
  {
    case: 'product code imports test support',
    rule: 'test-support-stays-in-tests',
    from: 'src/domains/widgets/store.ts',
    files: {
      'test/support/helpers.ts': 'export const helper = 1;\n',
      'src/domains/widgets/store.ts':
        "import { helper } from '../../../test/support/helpers';\nexport const s = helper;\n",
    },
  },
  {
    case: 'test support kept beside the product code in src (imported by a test only)',
    rule: 'test-support-lives-in-test',
    from: 'src/ecosystems/widgets/extract.test.ts',
    files: {
      'src/ecosystems/widgets/test-helpers.ts': 'export const fixture = 1;\n',
      'src/ecosystems/widgets/extract.test.ts':
        "import { fixture } from './test-helpers';\nexport const t = fixture;\n",
    },
  },
  {
    case: 'a cycle',
    rule: 'no-circular',
    from: 'src/domains/widgets/',
    files: {
      'src/domains/widgets/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'src/domains/widgets/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    },
  },
];

describe('layer rules', () => {
  // One tree holds every case (one run of the checker); each must be reported on its own file.
  it('fail lint on each wrong-way import, naming the rule and the file', async () => {
    const outcome = await cruise(tree(Object.assign({}, ...WRONG_WAY.map((c) => c.files))), [
      'src',
      'test',
    ]);
    expect(outcome.code).not.toBe(0);
    for (const { rule, from } of WRONG_WAY) {
      expect(outcome.output, rule).toContain(`error ${rule}: ${from}`);
    }
  });

  it('pass the right-way imports of the same kinds (the check is not vacuous)', async () => {
    const dir = tree({
      'src/core/problem.ts': 'export const notFound = 1;\n',
      'src/db/schema.ts':
        "import type { WidgetTable } from '../domains/widgets/tables';\nexport interface DB { widgets: WidgetTable }\n",
      'src/domains/widgets/tables.ts': 'export interface WidgetTable { id: string }\n',
      'src/http/query.ts':
        "import { notFound } from '../core/problem';\nexport const q = notFound;\n",
      'src/domains/widgets/routes.ts':
        "import { q } from '../../http/query';\nimport type { Config } from '../../config';\nexport const r = q;\nexport type C = Config;\n",
      'src/app.ts': "import { r } from './domains/widgets/routes';\nexport const a = r;\n",
      'test/support/helpers.ts': "import { a } from '../../src/app';\nexport const h = a;\n",
    });
    const outcome = await cruise(dir, ['src', 'test']);
    expect(outcome.output).toContain('no dependency violations found');
    expect(outcome.code).toBe(0);
  });

  it('hold for the real tree (the same targets as npm run lint)', async () => {
    const outcome = await cruise(root, ['src', 'cli', 'test', 'bench']);
    expect(outcome.output).toContain('no dependency violations found');
    expect(outcome.code).toBe(0);
  }, 120_000);
});
