#!/usr/bin/env node
// The production build (`npm run build`, and `prepare` on every `npm install` / `npm ci`): the CLI
// (which also serves) and the extraction worker as ES module bundles of the TypeScript sources in
// dist/, beside copies of the files the code reads at run time (SQL migrations, data tables).
// dist/ mirrors the source tree (dist/src/db/migrate.js for src/db/migrate.ts), and every
// `import.meta.url` in a source file is rewritten to that mirrored address, so code that finds
// files beside itself (migrations, the worker entry, data tables) finds them in dist/ as it does
// in src/. Packages stay external: node_modules is loaded as it is, never copied. docs/build.md.
// Plain JavaScript so that it runs on install without a TypeScript loader.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = join(ROOT, 'dist');
export const MANIFEST = join(DIST, 'manifest.json');
const FORMAT = 1;
/** The client types of the web app, generated on every build (git-ignored). */
export const WEB_SCHEMA = join(ROOT, 'web', 'src', 'api', 'schema.d.ts');

/** Bundled entries, each built on its own so that its output file is known to the rewrite. */
const ENTRIES = [
  'cli/main.ts',
  'src/domains/scans/dependencies/extract-worker.ts',
  'src/domains/quantum/inventory-worker.ts',
  'src/db/embedded-worker.ts',
  // Not run by the service: the build imports it for the web app's OpenAPI document.
  'src/openapi-document.ts',
];

/** Files and folders read at run time from beside the module that reads them. */
const ASSETS = [
  'src/db/migrations',
  'src/intel/risk/popular-names',
  'src/intel/replacements/curated.json',
];

const toPosix = (path) => path.split(sep).join('/');
const mirrored = (sourcePath) => join(DIST, relative(ROOT, sourcePath)).replace(/\.ts$/, '.js');

/** Rewrites `import.meta.url` in each bundled source file to the file's mirrored dist/ address. */
function mirroredImportMeta(outfile) {
  return {
    name: 'mirrored-import-meta',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined;
        const source = readFileSync(args.path, 'utf8');
        if (/import\.meta\.(dirname|filename)\b/.test(source)) {
          return {
            errors: [
              { text: 'use import.meta.url: import.meta.dirname/filename are not rewritten' },
            ],
          };
        }
        if (!source.includes('import.meta.url')) return { contents: source, loader: 'ts' };
        let address = toPosix(relative(dirname(outfile), mirrored(args.path)));
        if (!address.startsWith('.')) address = `./${address}`;
        const expression = `new URL(${JSON.stringify(address)}, import.meta.url).href`;
        return { contents: source.replaceAll('import.meta.url', expression), loader: 'ts' };
      });
    },
  };
}

function copyAssets() {
  const copied = [];
  const copy = (source) => {
    const info = statSync(source);
    const target = mirrored(source);
    if (info.isDirectory()) {
      mkdirSync(target, { recursive: true });
      copied.push(source);
      for (const name of readdirSync(source).sort()) copy(join(source, name));
      return;
    }
    mkdirSync(dirname(target), { recursive: true });
    const temporary = `${target}.${process.pid}.tmp`;
    copyFileSync(source, temporary);
    renameSync(temporary, target);
    copied.push(source);
  };
  for (const asset of ASSETS) copy(join(ROOT, asset));
  return copied;
}

async function writeAtomically(path, contents) {
  mkdirSync(dirname(path), { recursive: true });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, contents);
  renameSync(temporary, path);
}

/**
 * Builds dist/ and writes its manifest last: every input file (sources, assets and the folders
 * holding assets) with its mtime and size, so a launcher can tell a stale build in a few
 * milliseconds. Concurrent builds write the same files, each atomically.
 */
export async function build({ log = () => {}, web = true } = {}) {
  const started = performance.now();
  const esbuild = await import('esbuild');
  const inputs = new Set(['package.json']);
  // esbuild's API runs a helper process; stopped after the build, or a service rebuilt by its
  // launcher would keep it (tens of MB) for its whole life.
  await Promise.all(
    ENTRIES.map(async (entry) => {
      const outfile = mirrored(join(ROOT, entry));
      const result = await esbuild.build({
        entryPoints: [join(ROOT, entry)],
        absWorkingDir: ROOT,
        bundle: true,
        packages: 'external',
        platform: 'node',
        format: 'esm',
        target: 'node20.19',
        sourcemap: 'linked',
        write: false,
        metafile: true,
        outfile,
        logLevel: 'warning',
        plugins: [mirroredImportMeta(outfile)],
      });
      for (const path of Object.keys(result.metafile.inputs)) inputs.add(path);
      for (const file of result.outputFiles) await writeAtomically(file.path, file.contents);
    }),
  ).finally(() => esbuild.stop());
  for (const asset of copyAssets()) inputs.add(toPosix(relative(ROOT, asset)));
  const manifest = {
    format: FORMAT,
    builtAt: new Date().toISOString(),
    inputs: [...inputs].sort().map((path) => {
      const info = statSync(join(ROOT, path));
      return [path, info.mtimeMs, info.size];
    }),
  };
  await writeAtomically(MANIFEST, `${JSON.stringify(manifest)}\n`);
  log(`built dist/ in ${Math.round(performance.now() - started)} ms (${inputs.size} inputs)`);
  if (web) await buildWeb({ log });
  return manifest;
}

/**
 * The web app (web/README.md) into dist/web: the client types generated from the service's own
 * OpenAPI document (built above, no database), the web sources type-checked against them (a
 * changed route fails here), then Vite with content-hashed names. Skipped, with a line, where
 * the development packages are not installed (`npm ci --omit=dev`): the service then answers /
 * with a 503 naming `npm run build`.
 */
export async function buildWeb({ log = () => {} } = {}) {
  const started = performance.now();
  let vite;
  let openapiTS;
  try {
    vite = await import('vite');
    openapiTS = await import('openapi-typescript');
  } catch {
    log('skipped the web app: its build packages (devDependencies) are not installed');
    return;
  }
  const { offlineOpenApiDocument } = await import(
    pathToFileURL(join(DIST, 'src', 'openapi-document.js')).href
  );
  const document = await offlineOpenApiDocument();
  const ast = await openapiTS.default(document);
  const header =
    "// Generated by scripts/build.mjs from the service's OpenAPI document: do not edit.\n";
  await writeAtomically(WEB_SCHEMA, header + openapiTS.astToString(ast));
  const generated = performance.now();
  const typecheck = spawnSync(
    process.execPath,
    [
      join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'),
      '-p',
      join(ROOT, 'web'),
      // Unchanged files are not checked again on the next build (dist/ is the cache's home).
      '--incremental',
      '--tsBuildInfoFile',
      join(DIST, 'web.tsbuildinfo'),
    ],
    { cwd: ROOT, encoding: 'utf8' },
  );
  if (typecheck.status !== 0) {
    throw new Error(
      `the web app does not type-check against the API:\n${typecheck.stdout}${typecheck.stderr}`,
    );
  }
  const checked = performance.now();
  await vite.build({ configFile: join(ROOT, 'web', 'vite.config.ts'), logLevel: 'warn' });
  const ms = (from, to) => Math.round(to - from);
  log(
    `built dist/web in ${ms(started, performance.now())} ms (types ${ms(started, generated)} ms, ` +
      `type check ${ms(generated, checked)} ms, vite ${ms(checked, performance.now())} ms)`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  build({ log: (line) => console.log(line) }).catch((error) => {
    console.error(`the build failed: ${error.message}`);
    process.exitCode = 1;
  });
}
