import { readFile } from 'node:fs/promises';
import { dirname, extname, join } from 'node:path';
import { type ComputedTarget, computedTarget } from './computed-imports';
import { type ScriptBlock, SFC_EXTENSIONS, scriptBlocks, styleLanguages } from './sfc-scripts';

/**
 * JavaScript/TypeScript module syntax with esbuild's parser (a runtime dependency already): ESM
 * `import`/`export ... from`, CommonJS `require('x')`, `import('x')` with a literal, TypeScript
 * and JSX. Every file is an entry point of one build whose resolver plugin marks each import
 * external and reports it as a warning, which esbuild gives the import's own file and line.
 * `import type` is erased (not a runtime import); other unused imports are kept
 * (`verbatimModuleSyntax`). `require(x)` / `import(x)` with a computed argument are esbuild's own
 * `unsupported-require-call` / `unsupported-dynamic-import` notes, raised to warnings here,
 * and read for what they could load (computed-imports.ts). The script blocks of `.vue`,
 * `.svelte` and `.astro` files are entry points of their own (sfc-scripts.ts).
 */

export interface JsImport {
  file: string;
  line: number;
  specifier: string;
}

export interface JsImports {
  imports: JsImport[];
  /** Computed `require(x)` / `import(x)`, by file and line, with what each could load. */
  computed: { file: string; line: number; target: Exclude<ComputedTarget, { kind: 'literal' }> }[];
  /** Files esbuild could not parse (syntax errors). */
  failed: string[];
  /** The build ran past its time budget: nothing from it is known. */
  timedOut: boolean;
  /** `lang` of the components' `<style>` blocks (`scss`, `less`...) → the first such file. */
  styles: Map<string, string>;
}

interface Message {
  id?: string;
  text: string;
  location: { file: string; line: number; column: number; lineText: string } | null;
  detail?: unknown;
}

type Esbuild = typeof import('esbuild');
let loaded: Promise<Esbuild> | undefined;

const LOADERS = {
  '.js': 'jsx',
  '.jsx': 'jsx',
  '.mjs': 'js',
  '.cjs': 'js',
  '.ts': 'ts',
  '.mts': 'ts',
  '.cts': 'ts',
  '.tsx': 'tsx',
} as const;

export const JS_EXTENSIONS: ReadonlySet<string> = new Set([
  ...Object.keys(LOADERS),
  ...SFC_EXTENSIONS.keys(),
]);

/** Entry points of single-file components' script blocks: `dw-block:<file>#<n>`. */
const BLOCK = 'dw-block';

/** Each script block of the single-file components among `files`, by its entry point path. */
async function componentBlocks(
  root: string,
  files: readonly string[],
): Promise<{ blocks: Map<string, ScriptBlock>; failed: string[]; styles: Map<string, string> }> {
  const blocks = new Map<string, ScriptBlock>();
  const failed: string[] = [];
  const styles = new Map<string, string>();
  for (const file of files) {
    const kind = SFC_EXTENSIONS.get(extname(file));
    if (!kind) continue;
    const text = await readFile(join(root, file), 'utf8').catch(() => null);
    if (text === null) {
      failed.push(file);
      continue;
    }
    scriptBlocks(text, kind).forEach((block, n) => {
      blocks.set(`${file}#${n}`, block);
    });
    for (const lang of styleLanguages(text)) if (!styles.has(lang)) styles.set(lang, file);
  }
  return { blocks, failed, styles };
}

/** The repository path of a message's file (a script block's entry path names its file). */
function sourceFile(file: string): string {
  if (!file.startsWith(`${BLOCK}:`)) return file;
  const path = file.slice(BLOCK.length + 1);
  return path.slice(0, path.lastIndexOf('#'));
}

function importDetail(detail: unknown): string | null {
  if (typeof detail !== 'object' || detail === null) return null;
  const path = (detail as { importPath?: unknown }).importPath;
  return typeof path === 'string' ? path : null;
}

/**
 * Marks every import external and reports it as a warning (esbuild gives it the import's file and
 * line); loads the components' script blocks from `dw-block:<file>#<n>` entry points.
 */
function importsPlugin(
  root: string,
  blocks: ReadonlyMap<string, ScriptBlock>,
): import('esbuild').Plugin {
  return {
    name: 'driftwatch-imports',
    setup(build) {
      build.onResolve({ filter: /^dw-block:/ }, (args) =>
        args.kind === 'entry-point'
          ? { path: args.path.slice(BLOCK.length + 1), namespace: BLOCK }
          : undefined,
      );
      build.onLoad({ filter: /.*/, namespace: BLOCK }, (args) => {
        const block = blocks.get(args.path) as ScriptBlock;
        const resolveDir = dirname(join(root, sourceFile(`${BLOCK}:${args.path}`)));
        return { contents: block.contents, loader: block.loader, resolveDir };
      });
      build.onResolve({ filter: /.*/ }, (args) =>
        args.kind === 'entry-point'
          ? undefined
          : {
              path: args.path,
              external: true,
              warnings: [{ text: 'import', detail: { importPath: args.path } }],
            },
      );
    },
  };
}

/**
 * The imports of `files` (paths relative to `root`). `timeoutMs` bounds the whole build; past it
 * the build is cancelled and `timedOut` set.
 */
export async function jsImports(
  root: string,
  files: string[],
  timeoutMs: number,
): Promise<JsImports> {
  const out: JsImports = {
    imports: [],
    computed: [],
    failed: [],
    timedOut: false,
    styles: new Map(),
  };
  if (files.length === 0) return out;
  loaded ??= import('esbuild');
  const esbuild = await loaded;
  const components = await componentBlocks(root, files);
  out.styles = components.styles;
  const entryPoints = [
    ...files.filter((file) => !SFC_EXTENSIONS.has(extname(file))).map((file) => join(root, file)),
    ...[...components.blocks.keys()].map((key) => `${BLOCK}:${key}`),
  ];
  if (entryPoints.length === 0) {
    out.failed = components.failed;
    return out;
  }
  const context = await esbuild.context({
    absWorkingDir: root,
    entryPoints,
    bundle: true,
    write: false,
    outdir: join(root, '.driftwatch-reachability-out'),
    logLevel: 'silent',
    format: 'esm',
    platform: 'neutral',
    loader: LOADERS,
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    logOverride: { 'unsupported-require-call': 'warning', 'unsupported-dynamic-import': 'warning' },
    plugins: [importsPlugin(root, components.blocks)],
  });
  let warnings: Message[] = [];
  let errors: Message[] = [];
  const timer = setTimeout(() => {
    out.timedOut = true;
    void context.cancel();
  }, timeoutMs);
  try {
    const result = await context.rebuild();
    warnings = result.warnings;
  } catch (error) {
    const failure = error as { warnings?: Message[]; errors?: Message[] };
    warnings = failure.warnings ?? [];
    errors = failure.errors ?? [];
  } finally {
    clearTimeout(timer);
    await context.dispose();
  }
  if (out.timedOut) return out;
  collect(out, warnings);
  // A glob import of local files (`./builtin/${name}.js`) that matches none fails to resolve:
  // it loads no package, and the file was parsed.
  const unparsed = errors.flatMap((e) =>
    e.location && !e.text.startsWith('Could not resolve') ? [sourceFile(e.location.file)] : [],
  );
  out.failed = [...new Set([...components.failed, ...unparsed])];
  return out;
}

function collect(out: JsImports, warnings: readonly Message[]): void {
  for (const message of warnings) {
    if (!message.location) continue;
    const { line, column, lineText } = message.location;
    const file = sourceFile(message.location.file);
    const specifier = importDetail(message.detail);
    if (specifier !== null) {
      out.imports.push({ file, line, specifier });
      continue;
    }
    if (message.id !== 'unsupported-require-call' && message.id !== 'unsupported-dynamic-import') {
      continue;
    }
    const target = computedTarget(lineText, column);
    if (target.kind === 'literal') out.imports.push({ file, line, specifier: target.specifier });
    else if (target.kind !== 'local') out.computed.push({ file, line, target });
  }
}
