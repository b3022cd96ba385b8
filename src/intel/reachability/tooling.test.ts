import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { analyseReachability, type ReachabilityFact } from './analyse';
import { computedTarget } from './computed-imports';
import { jsTokens } from './js-tokens';
import { scriptBlocks } from './sfc-scripts';
import { candidatesOf, toolNames, wordsOf } from './tool-names';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'driftwatch-tooling-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const npm = (name: string, parents: string[] = [], manifest = 'package-lock.json') => ({
  ecosystem: 'npm',
  name,
  scope: 'runtime',
  parents,
  manifest,
});

const byName = (facts: ReachabilityFact[]) => Object.fromEntries(facts.map((f) => [f.name, f]));

describe('single-file component scripts', () => {
  it('vue: both blocks, on their own lines; comments, templates and JSON-LD are not code', () => {
    const text =
      '<template><p>&lt;script&gt; {{ a < b }}</p></template>\n<!-- <script>import "no"</script> -->\n<script>\nimport a from "a";\n</script>\n<script setup lang="ts">\nimport type { T } from "t";\nimport b from "b";\n</script>\n<script type="application/ld+json">{"x": 1}</script>\n<style lang="scss">a{}</style>\n';
    const blocks = scriptBlocks(text, 'vue');
    expect(blocks.map((b) => b.loader)).toEqual(['jsx', 'ts']);
    expect(blocks[0]?.contents.split('\n')[3]).toBe('import a from "a";');
    expect(blocks[1]?.contents.split('\n')[7]).toBe('import b from "b";');
  });

  it('astro: the frontmatter (a top-level return kept harmless) and bundled scripts', () => {
    const text =
      "---\nimport x from 'x';\nif (!ok) return Astro.redirect('/');\nfunction f() { return 1; }\n---\n<div/>\n<script is:inline>import('no')</script>\n<script>\nimport y from 'y';\n</script>\n";
    const blocks = scriptBlocks(text, 'astro');
    expect(blocks).toHaveLength(2);
    expect(blocks[0]?.contents).toContain(';;;;;; Astro.redirect');
    expect(blocks[0]?.contents).toContain('{ return 1; }');
    expect(blocks[1]?.contents.split('\n')[8]).toBe("import y from 'y';");
  });

  it('hostile: 100,000 unterminated tags and comments cost linear time', () => {
    const started = Date.now();
    expect(scriptBlocks('<script x="'.repeat(100_000), 'vue')).toEqual([]);
    expect(scriptBlocks('<!--'.repeat(100_000), 'svelte')).toEqual([]);
    expect(scriptBlocks(`<script>${'<'.repeat(200_000)}`, 'vue')).toEqual([]);
    const returns = scriptBlocks(`---\n${'return;\n'.repeat(100_000)}---\n`, 'astro');
    expect(returns[0]?.contents).toContain(';;;;;;;');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('imports in .vue, .svelte and .astro files count, with their file and line', async () => {
    const root = tree({
      'src/App.vue':
        '<template><div/></template>\n<script setup lang="ts">\nimport axios from "axios";\n</script>\n',
      'src/C.svelte': "<script>\n  import { onMount } from 'svelte';\n</script>\n<p>hi</p>\n",
      'src/pages/i.astro': "---\nimport { marked } from 'marked';\n---\n<p/>\n",
    });
    const facts = byName(
      await analyseReachability(root, [
        npm('axios'),
        npm('svelte'),
        npm('marked'),
        npm('left-pad', ['x']),
      ]),
    );
    expect(facts.axios?.evidence).toMatchObject({ file: 'src/App.vue', line: 3 });
    expect(facts.svelte?.evidence).toMatchObject({ file: 'src/C.svelte', line: 2 });
    expect(facts.marked?.evidence).toMatchObject({ file: 'src/pages/i.astro', line: 2 });
    expect(facts['left-pad']?.reachability).toBe('not_imported');
  });
});

describe('computed imports', () => {
  it.each([
    ["const c = await import('./x.json', opts);", 35, { kind: 'literal', specifier: './x.json' }],
    ['const p = require(`./plugins/\u0024{name}`);', 10, { kind: 'local' }],
    ["const p = require('../locale' + name);", 10, { kind: 'local' }],
    ['const t = require(path.resolve(cwd, file));', 10, { kind: 'local' }],
    ['const u = await import(pathToFileURL(file).href);', 16, { kind: 'local' }],
    [
      'const r = require(`eslint-plugin-\u0024{name}`);',
      10,
      { kind: 'prefix', prefix: 'eslint-plugin-' },
    ],
    ['const s = require(name);', 10, { kind: 'any' }],
    ['const s = require(', 10, { kind: 'any' }],
  ])('%s', (line, column, expected) => {
    expect(computedTarget(line, column)).toEqual(expected);
  });

  it('a literal import whose options are not an object literal is an import', async () => {
    const root = tree({
      'a.mjs':
        "const opts = { with: { type: 'json' } };\nconst d = await import('data-pkg/x.json', opts);\nconst e = await import('./x.json', { with: { type: 'json' } });\n",
    });
    const facts = await analyseReachability(root, [npm('data-pkg'), npm('other', ['x'])]);
    expect(facts.map((f) => f.reachability)).toEqual(['imported', 'not_imported']);
  });

  it('a computed import makes unknown only what it could load, naming its file and line', async () => {
    const root = tree({
      'package.json': '{"name":"lib"}',
      'src/index.js':
        "import a from 'a';\nexport const load = (n) => import(`lib-plugin-\u0024{n}`);\n",
      'examples/demo/package.json': '{"name":"demo"}',
      'examples/demo/run.js': 'require(process.argv[2]);\n',
    });
    const demo = 'examples/demo/package-lock.json';
    const facts = byName(
      await analyseReachability(root, [
        npm('a'),
        npm('lib-plugin-x'),
        npm('plugin-dep', ['lib-plugin-x']),
        npm('unused', ['nothing']),
        npm('yargs', [], demo),
      ]),
    );
    expect(facts.a?.reachability).toBe('imported');
    expect(facts['lib-plugin-x']).toMatchObject({
      reachability: 'unknown',
      reason: 'the computed import at src/index.js:2 could load it (packages named lib-plugin-…)',
    });
    expect(facts['plugin-dep']?.reachability).toBe('unknown');
    expect(facts.unused?.reachability).toBe('not_imported');
    expect(facts.yargs).toMatchObject({
      reachability: 'unknown',
      reason:
        'the computed import at examples/demo/run.js:1 could load it (any package of examples/demo)',
    });
  });
});

describe('tooling', () => {
  it('tokens: strings, template parts, keys; comments and regular expressions skipped', () => {
    const tokens = jsTokens(
      "// 'no'\nconst re = /'[a/]'/g; /* 'nor' */\nmodule.exports = { preset: 'ts-jest', t: `a\u0024{x}b` };\n",
    );
    expect(tokens.filter((t) => t.kind === 'string').map((t) => `${t.value}@${t.line}`)).toEqual([
      'ts-jest@3',
      'a@3',
      'b@3',
    ]);
  });

  it('words and the packages they may name', () => {
    expect(wordsOf('cross-env NODE_ENV=production webpack --mode=production && tsc')).toEqual([
      'cross-env',
      'NODE_ENV',
      'production',
      'webpack',
      'production',
      'tsc',
    ]);
    const started = Date.now();
    expect(wordsOf(`${'"'.repeat(1_000_000)}x "jest"`)).toEqual(['jest']);
    expect(Date.now() - started).toBeLessThan(1_000);
    const names = toolNames(['@biomejs/biome'], [['vue-tsc', 'vue-tsc']]);
    expect(candidatesOf('tsc', names)).toContain('typescript');
    expect(candidatesOf('biome', names)).toContain('@biomejs/biome');
    expect(candidatesOf('vue/essential', names)).toContain('eslint-plugin-vue');
    expect(candidatesOf('@typescript-eslint', names)).toContain('@typescript-eslint/eslint-plugin');
    expect(candidatesOf('@vue/prettier', names)).toContain('@vue/eslint-config-prettier');
    expect(candidatesOf('@babel/env', names)).toContain('@babel/preset-env');
    expect(candidatesOf('jsdom', names)).toContain('jest-environment-jsdom');
    expect(candidatesOf('./node_modules/.bin/mocha', names)).toContain('mocha');
  });

  it('scripts, configurations in every format, and hooks; used_by_tooling with evidence', async () => {
    const root = tree({
      'package.json': `${JSON.stringify(
        {
          name: 'app',
          scripts: { test: 'jest --coverage', build: 'tsc -p .' },
          dependencies: { 'not-a-use': '1' },
          jest: { testEnvironment: 'jsdom' },
        },
        null,
        2,
      )}\n`,
      '.eslintrc.yml': 'extends:\n  - plugin:vue/recommended\nparser: vue-eslint-parser\n',
      '.babelrc': '{\n  // comment\n  "plugins": ["transform-runtime"]\n}\n',
      'postcss.config.js': 'module.exports = { plugins: { tailwindcss: {}, autoprefixer: {} } };\n',
      '.husky/pre-commit': 'npx lint-staged\n',
      'index.js': "require('./x');\n",
      'src/a.scss': '$x: 1;\n',
    });
    const names = [
      'sass',
      'jest',
      'typescript',
      'jest-environment-jsdom',
      'eslint-plugin-vue',
      'vue-eslint-parser',
      'babel-plugin-transform-runtime',
      'tailwindcss',
      'autoprefixer',
      'lint-staged',
      'not-a-use',
    ];
    const facts = byName(
      await analyseReachability(
        root,
        names.map((n) => npm(n, ['x'])),
      ),
    );
    for (const name of names.slice(0, -1)) {
      expect(facts[name]?.reachability, name).toBe('used_by_tooling');
    }
    expect(facts['not-a-use']?.reachability).toBe('not_imported');
    expect(facts.jest).toMatchObject({
      evidence: { file: 'package.json', line: 4, import: 'jest --coverage', chain: ['jest'] },
      reason: 'not imported by code; used by tooling: the package.json script "test"',
    });
    expect(facts['eslint-plugin-vue']?.evidence).toMatchObject({ file: '.eslintrc.yml', line: 2 });
    expect(facts['babel-plugin-transform-runtime']?.evidence).toMatchObject({ line: 3 });
    expect(facts['lint-staged']?.evidence).toMatchObject({ file: '.husky/pre-commit', line: 1 });
    expect(facts.sass?.evidence).toMatchObject({ file: 'src/a.scss', line: 1, import: 'scss' });
  });

  it('an unreadable tool configuration leaves not_imported undecided', async () => {
    const root = tree({ 'index.js': '1;\n', '.eslintrc.yml': `a: ${'['.repeat(40)}\n` });
    const facts = await analyseReachability(root, [npm('x', ['y'])]);
    expect(facts[0]).toMatchObject({ reachability: 'unknown' });
    expect(facts[0]?.reason).toContain('.eslintrc.yml');
  });
});

describe('tooling files', () => {
  it('credential rc files are never read; long scripts are quoted up to 120 characters', async () => {
    const long = `jest ${'x'.repeat(300)}`;
    const root = tree({
      '.npmrc': '//registry.example.test/:_authToken=secret-token\nleft-pad=1\n',
      '.envrc': 'export TOKEN=left-pad\n',
      'package.json': JSON.stringify({ scripts: { test: long } }),
      'index.js': '1;\n',
    });
    const facts = byName(
      await analyseReachability(root, [npm('left-pad', ['x']), npm('jest', ['y'])]),
    );
    expect(facts['left-pad']?.reachability).toBe('not_imported');
    expect(facts.jest?.evidence?.import).toHaveLength(120);
  });
});

describe('computed Python imports', () => {
  it('make unknown only the distributions their literal prefix allows, naming file and line', async () => {
    const root = tree({
      'app/__init__.py': '',
      'app/main.py':
        'import importlib\nimport requests\nplugin = importlib.import_module(f"app.plugins.{name}")\nloader = importlib.import_module(f"yaml.{kind}")\nextra = importlib.import_module("flask_" + name)\n',
    });
    const py = (name: string, parents: string[] = []) => ({
      ecosystem: 'PyPI',
      name,
      scope: 'runtime',
      parents,
      manifest: 'poetry.lock',
    });
    const facts = byName(
      await analyseReachability(root, [
        py('requests'),
        py('urllib3', ['requests']),
        py('pyyaml'),
        py('flask-login'),
        py('numpy', ['other']),
      ]),
    );
    expect(facts.urllib3?.reachability).toBe('imported');
    expect(facts.pyyaml).toMatchObject({
      reachability: 'unknown',
      reason: expect.stringContaining('app/main.py:4'),
    });
    expect(facts['flask-login']).toMatchObject({
      reachability: 'unknown',
      reason: expect.stringContaining('app/main.py:5'),
    });
    expect(facts.numpy?.reachability).toBe('not_imported');
  });

  it('without a literal prefix, every distribution is unknown', async () => {
    const root = tree({ 'main.py': 'import importlib\nimportlib.import_module(sys.argv[1])\n' });
    const facts = await analyseReachability(root, [
      { ecosystem: 'PyPI', name: 'numpy', scope: 'runtime', parents: ['x'] },
    ]);
    expect(facts[0]).toMatchObject({
      reachability: 'unknown',
      reason: 'the computed import at main.py:2 could load it (any package of the repository)',
    });
  });
});
