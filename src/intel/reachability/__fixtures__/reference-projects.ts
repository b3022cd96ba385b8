import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The reference projects of the not_imported precision measurement (docs/reachability.md
 * "Precision"): written for the test, mirroring common real layouts (a vue-cli app with jest,
 * babel, eslint and husky; a TypeScript CLI with a plugin loader; a library with an examples/
 * project of its own; an Astro site with Svelte islands). Each dependency carries the truth as
 * a reference that counts imports and tool use would: `imported` (code loads it, directly or
 * through its chain), `tooling` (a script, hook or tool configuration uses it), `unused`.
 */

export type Truth = 'imported' | 'tooling' | 'unused';

export interface ReferenceDependency {
  name: string;
  truth: Truth;
  parents?: string[];
  /** Defaults to the project's root package-lock.json. */
  manifest?: string;
}

export interface ReferenceProject {
  name: string;
  files: Record<string, string>;
  dependencies: ReferenceDependency[];
}

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

const vueApp: ReferenceProject = {
  name: 'vue-cli app (jest, babel, eslint, husky, scss)',
  files: {
    'package.json': json({
      name: 'shop-front',
      version: '0.1.0',
      private: true,
      scripts: {
        serve: 'vue-cli-service serve',
        build: 'vue-cli-service build',
        'test:unit': 'vue-cli-service test:unit',
        lint: 'vue-cli-service lint',
        prepare: 'husky install',
      },
      dependencies: { 'core-js': '^3.8.3', vue: '^3.2.13', 'vue-router': '^4.0.3', vuex: '^4.0.0' },
      eslintConfig: {
        root: true,
        env: { node: true },
        extends: ['plugin:vue/vue3-essential', 'eslint:recommended', '@vue/prettier'],
        parserOptions: { parser: '@babel/eslint-parser' },
      },
      'lint-staged': { '*.{js,vue}': 'vue-cli-service lint' },
      browserslist: ['> 1%', 'last 2 versions', 'not dead'],
    }),
    'babel.config.js': "module.exports = {\n  presets: ['@vue/cli-plugin-babel/preset'],\n};\n",
    'jest.config.js':
      "module.exports = {\n  preset: '@vue/cli-plugin-unit-jest',\n  transform: { '^.+\\\\.vue$': '@vue/vue3-jest' },\n};\n",
    'vue.config.js':
      "const { defineConfig } = require('@vue/cli-service');\nmodule.exports = defineConfig({ transpileDependencies: true });\n",
    '.husky/pre-commit': '#!/usr/bin/env sh\n. "$(dirname -- "$0")/_/husky.sh"\n\nnpx lint-staged\n',
    'src/main.js':
      "import { createApp } from 'vue';\nimport App from './App.vue';\nimport router from './router';\nimport store from './store';\n\ncreateApp(App).use(store).use(router).mount('#app');\n",
    'src/App.vue':
      '<template>\n  <nav><router-link to="/">Home</router-link></nav>\n  <router-view />\n</template>\n\n<script>\nimport ProductList from \'./components/ProductList.vue\';\nexport default { components: { ProductList } };\n</script>\n\n<style lang="scss">\n$brand: #42b983;\nnav a { color: $brand; }\n</style>\n',
    'src/components/ProductList.vue':
      '<template>\n  <ul><li v-for="p in products" :key="p.id">{{ when(p) }}</li></ul>\n</template>\n\n<script setup lang="ts">\nimport { ref, onMounted } from \'vue\';\nimport axios from \'axios\';\nimport { format } from \'date-fns\';\n\nconst products = ref<{ id: string; at: string }[]>([]);\nconst when = (p: { at: string }) => format(new Date(p.at), \'PP\');\nonMounted(async () => {\n  products.value = (await axios.get(\'/api/products\')).data;\n});\n</script>\n',
    'src/router/index.js':
      "import { createRouter, createWebHistory } from 'vue-router';\nexport default createRouter({ history: createWebHistory(), routes: [] });\n",
    'src/store/index.js': "import { createStore } from 'vuex';\nexport default createStore({});\n",
    'tests/unit/ProductList.spec.js':
      "import { mount } from '@vue/test-utils';\nimport flushPromises from 'flush-promises';\nimport ProductList from '@/components/ProductList.vue';\n\ntest('renders', async () => {\n  mount(ProductList);\n  await flushPromises();\n});\n",
  },
  dependencies: [
    { name: 'vue', truth: 'imported' },
    { name: 'vue-router', truth: 'imported' },
    { name: 'vuex', truth: 'imported' },
    { name: 'axios', truth: 'imported' },
    { name: 'follow-redirects', truth: 'imported', parents: ['axios'] },
    { name: 'date-fns', truth: 'imported' },
    { name: '@vue/test-utils', truth: 'imported' },
    { name: 'flush-promises', truth: 'imported' },
    { name: '@vue/cli-service', truth: 'imported' },
    { name: 'webpack', truth: 'imported', parents: ['@vue/cli-service'] },
    { name: 'core-js', truth: 'tooling', parents: ['@vue/babel-preset-app'] },
    { name: '@vue/cli-plugin-babel', truth: 'tooling' },
    { name: '@vue/babel-preset-app', truth: 'tooling', parents: ['@vue/cli-plugin-babel'] },
    { name: '@babel/core', truth: 'tooling', parents: ['@vue/cli-plugin-babel'] },
    { name: '@vue/cli-plugin-eslint', truth: 'tooling' },
    { name: '@vue/cli-plugin-router', truth: 'tooling' },
    { name: '@vue/cli-plugin-vuex', truth: 'tooling' },
    { name: '@vue/cli-plugin-unit-jest', truth: 'tooling' },
    { name: 'jest', truth: 'tooling', parents: ['@vue/cli-plugin-unit-jest'] },
    { name: 'babel-jest', truth: 'tooling', parents: ['@vue/cli-plugin-unit-jest'] },
    { name: '@vue/vue3-jest', truth: 'tooling' },
    { name: '@babel/eslint-parser', truth: 'tooling' },
    { name: 'eslint', truth: 'tooling', parents: ['@vue/cli-plugin-eslint'] },
    { name: 'eslint-plugin-vue', truth: 'tooling' },
    { name: '@vue/eslint-config-prettier', truth: 'tooling' },
    { name: 'eslint-plugin-prettier', truth: 'tooling', parents: ['@vue/eslint-config-prettier'] },
    { name: 'prettier', truth: 'tooling', parents: ['eslint-plugin-prettier'] },
    { name: 'sass', truth: 'tooling' },
    { name: 'sass-loader', truth: 'tooling' },
    { name: 'husky', truth: 'tooling' },
    { name: 'lint-staged', truth: 'tooling' },
    { name: 'lodash', truth: 'unused' },
    { name: 'moment', truth: 'unused' },
    { name: 'webpack-bundle-analyzer', truth: 'unused' },
    { name: 'acorn-walk', truth: 'unused', parents: ['webpack-bundle-analyzer'] },
  ],
};

const pluginCli: ReferenceProject = {
  name: 'TypeScript CLI with a plugin loader',
  files: {
    'package.json': json({
      name: 'tidy-cli',
      version: '2.3.0',
      type: 'module',
      bin: { tidy: 'dist/cli.js' },
      scripts: {
        build: 'tsc -p tsconfig.build.json',
        test: 'vitest run',
        lint: 'eslint "src/**/*.ts"',
        release: 'changeset publish',
      },
    }),
    '.eslintrc.cjs':
      "module.exports = {\n  root: true,\n  parser: '@typescript-eslint/parser',\n  plugins: ['@typescript-eslint'],\n  extends: ['eslint:recommended', 'plugin:@typescript-eslint/recommended'],\n};\n",
    'tsconfig.json': json({ compilerOptions: { strict: true, module: 'NodeNext', outDir: 'dist' } }),
    'tsconfig.build.json': json({ extends: './tsconfig.json', include: ['src'] }),
    'src/cli.ts':
      "import { Command } from 'commander';\nimport { loadConfig } from './config.js';\nimport { loadPlugins } from './plugins.js';\n\nconst program = new Command('tidy');\nprogram.action(async () => loadPlugins((await loadConfig()).plugins));\n",
    'src/config.ts':
      "import { pathToFileURL } from 'node:url';\nimport { cosmiconfig } from 'cosmiconfig';\n\nexport async function loadConfig(file?: string) {\n  if (file) return (await import(pathToFileURL(file).href)).default;\n  return (await cosmiconfig('tidy').search())?.config ?? { plugins: [] };\n}\n",
    'src/plugins.ts':
      "import { log } from './log.js';\n\nexport async function loadPlugins(names: string[]) {\n  for (const name of names) {\n    const local = name.startsWith('.') ? await import(`./builtin/${name}.js`) : null;\n    const plugin = local ?? (await import(`tidy-plugin-${name}`));\n    log(plugin.name);\n  }\n}\n",
    'src/log.ts':
      "import createDebug from 'debug';\nimport pc from 'picocolors';\n\nconst debug = createDebug('tidy');\nexport const log = (s: string) => debug(pc.dim(s));\n",
    'src/files.ts':
      "import fg from 'fast-glob';\nimport semver from 'semver';\nexport const files = () => fg('**/*', { dot: semver.gte(process.version, '18.0.0') });\n",
    'test/cli.test.ts':
      "import { describe, it, expect } from 'vitest';\ndescribe('cli', () => it('loads', () => expect(1).toBe(1)));\n",
  },
  dependencies: [
    { name: 'commander', truth: 'imported' },
    { name: 'cosmiconfig', truth: 'imported' },
    { name: 'js-yaml', truth: 'imported', parents: ['cosmiconfig'] },
    { name: 'debug', truth: 'imported' },
    { name: 'ms', truth: 'imported', parents: ['debug'] },
    { name: 'picocolors', truth: 'imported' },
    { name: 'fast-glob', truth: 'imported' },
    { name: 'micromatch', truth: 'imported', parents: ['fast-glob'] },
    { name: 'semver', truth: 'imported' },
    { name: 'tidy-plugin-json', truth: 'imported' },
    { name: 'vitest', truth: 'imported' },
    { name: 'vite', truth: 'imported', parents: ['vitest'] },
    { name: 'typescript', truth: 'tooling' },
    { name: 'eslint', truth: 'tooling' },
    { name: '@typescript-eslint/parser', truth: 'tooling' },
    { name: '@typescript-eslint/eslint-plugin', truth: 'tooling' },
    { name: '@types/node', truth: 'tooling' },
    { name: '@types/semver', truth: 'tooling' },
    { name: '@changesets/cli', truth: 'tooling' },
    { name: '@changesets/config', truth: 'tooling', parents: ['@changesets/cli'] },
    { name: 'rimraf', truth: 'unused' },
    { name: 'nodemon', truth: 'unused' },
    { name: 'chokidar', truth: 'unused', parents: ['nodemon'] },
  ],
};

const EXAMPLE = 'examples/node/package-lock.json';

const libraryWithExamples: ReferenceProject = {
  name: 'library with an examples/ project (computed require there)',
  files: {
    'package.json': json({
      name: 'tiny-id',
      version: '9.0.0',
      type: 'module',
      scripts: {
        build: 'rollup -c',
        test: 'jest',
        lint: 'eslint . && prettier --check .',
        'examples:node': 'cd examples/node && npm install && npm start',
        ci: 'run-s lint test build',
      },
    }),
    'rollup.config.mjs':
      "import terser from '@rollup/plugin-terser';\nimport { nodeResolve } from '@rollup/plugin-node-resolve';\n\nexport default { input: 'src/index.js', plugins: [nodeResolve(), terser()] };\n",
    '.babelrc': '{\n  // jest runs the sources through babel\n  "presets": [["@babel/preset-env", { "targets": { "node": "current" } }]]\n}\n',
    '.eslintrc.json': json({ extends: ['eslint:recommended', 'prettier'] }),
    'src/index.js': "export { v4 } from './v4.js';\n",
    'src/v4.js':
      "import { randomFillSync } from 'node:crypto';\nexport const v4 = () => randomFillSync(new Uint8Array(16));\n",
    'test/v4.test.js':
      "import { v4 } from '../src/index.js';\ntest('v4', () => expect(v4()).toHaveLength(16));\n",
    'examples/node/package.json': json({
      name: 'example-node',
      private: true,
      scripts: { start: 'node index.js' },
      dependencies: { 'tiny-id': 'file:../..', yargs: '^17.7.2' },
    }),
    'examples/node/index.js':
      "const yargs = require('yargs');\nconst argv = yargs(process.argv.slice(2)).argv;\nconst { v4 } = require(argv.impl || 'tiny-id');\nconsole.log(v4());\n",
  },
  dependencies: [
    { name: 'rollup', truth: 'tooling', parents: [] },
    { name: '@rollup/plugin-terser', truth: 'imported' },
    { name: 'terser', truth: 'imported', parents: ['@rollup/plugin-terser'] },
    { name: '@rollup/plugin-node-resolve', truth: 'imported' },
    { name: 'jest', truth: 'tooling' },
    { name: 'jest-config', truth: 'tooling', parents: ['jest'] },
    { name: 'babel-jest', truth: 'tooling', parents: ['jest-config'] },
    { name: '@babel/core', truth: 'tooling', parents: ['babel-jest'] },
    { name: '@babel/preset-env', truth: 'tooling' },
    { name: 'eslint', truth: 'tooling' },
    { name: 'eslint-config-prettier', truth: 'tooling' },
    { name: 'prettier', truth: 'tooling' },
    { name: 'npm-run-all', truth: 'tooling' },
    { name: 'standard-version', truth: 'unused' },
    { name: 'bundlewatch', truth: 'unused' },
    { name: 'lodash.debounce', truth: 'unused' },
    { name: 'yargs', truth: 'imported', manifest: EXAMPLE },
    { name: 'cliui', truth: 'imported', parents: ['yargs'], manifest: EXAMPLE },
    { name: 'tiny-id', truth: 'imported', manifest: EXAMPLE },
  ],
};

const astroSite: ReferenceProject = {
  name: 'Astro site with Svelte islands',
  files: {
    'package.json': json({
      name: 'docs-site',
      type: 'module',
      scripts: {
        dev: 'astro dev',
        build: 'astro check && astro build',
        format: 'prettier --write .',
      },
    }),
    'astro.config.mjs':
      "import { defineConfig } from 'astro/config';\nimport svelte from '@astrojs/svelte';\n\nexport default defineConfig({ integrations: [svelte()] });\n",
    '.prettierrc': json({ plugins: ['prettier-plugin-astro', 'prettier-plugin-svelte'] }),
    'tsconfig.json': json({ extends: 'astro/tsconfigs/strict' }),
    'src/pages/index.astro':
      "---\nimport Layout from '../layouts/Layout.astro';\nimport Counter from '../components/Counter.svelte';\nimport { marked } from 'marked';\nconst user = Astro.locals.user;\nif (!user) return Astro.redirect('/login');\nconst html = marked.parse('# Hi');\n---\n<Layout title=\"Home\">\n  <Counter client:load />\n  <Fragment set:html={html} />\n</Layout>\n<script>\n  import { atom } from 'nanostores';\n  atom(0);\n</script>\n<script type=\"application/ld+json\">{ \"@context\": \"https://schema.org\" }</script>\n",
    'src/layouts/Layout.astro':
      '---\nconst { title } = Astro.props;\n---\n<html><head><title>{title}</title></head><body><slot /></body></html>\n<style lang="scss">\n$gap: 1rem;\nbody { margin: $gap; }\n</style>\n',
    'src/components/Counter.svelte':
      '<script lang="ts">\n  import { onMount } from \'svelte\';\n  import { useStore } from \'@nanostores/svelte\';\n  let count = 0;\n  onMount(() => useStore);\n</script>\n\n<button on:click={() => count++}>{count}</button>\n',
  },
  dependencies: [
    { name: 'astro', truth: 'imported' },
    { name: '@astrojs/svelte', truth: 'imported' },
    { name: 'svelte', truth: 'imported' },
    { name: 'marked', truth: 'imported' },
    { name: 'nanostores', truth: 'imported' },
    { name: '@nanostores/svelte', truth: 'imported' },
    { name: '@astrojs/check', truth: 'tooling' },
    { name: 'typescript', truth: 'tooling', parents: ['@astrojs/check'] },
    { name: 'prettier', truth: 'tooling' },
    { name: 'prettier-plugin-astro', truth: 'tooling' },
    { name: 'prettier-plugin-svelte', truth: 'tooling' },
    { name: 'sass', truth: 'tooling' },
    { name: 'dayjs', truth: 'unused' },
    { name: 'clsx', truth: 'unused' },
  ],
};

export const REFERENCE_PROJECTS: readonly ReferenceProject[] = [
  vueApp,
  pluginCli,
  libraryWithExamples,
  astroSite,
];

/** Writes the project, its direct root dependencies declared in package.json as a real one would. */
export function writeProject(project: ReferenceProject, root: string): void {
  const files = { ...project.files };
  const declared = project.dependencies.filter((d) => !d.manifest && !d.parents?.length);
  const manifest = JSON.parse(files['package.json'] as string);
  manifest.devDependencies = Object.fromEntries(declared.map((d) => [d.name, '*']));
  files['package.json'] = `${JSON.stringify(manifest, null, 2)}\n`;
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

