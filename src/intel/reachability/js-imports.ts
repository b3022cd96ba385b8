import { join } from 'node:path';

/**
 * JavaScript/TypeScript module syntax with esbuild's parser (a runtime dependency already): ESM
 * `import`/`export ... from`, CommonJS `require('x')`, `import('x')` with a literal, TypeScript
 * and JSX. Every file is an entry point of one build whose resolver plugin marks each import
 * external and reports it as a warning, which esbuild gives the import's own file and line.
 * `import type` is erased (not a runtime import); other unused imports are kept
 * (`verbatimModuleSyntax`). `require(x)` / `import(x)` with a computed argument are esbuild's own
 * `unsupported-require-call` / `unsupported-dynamic-import` notes, raised to warnings here.
 */

export interface JsImport {
  file: string;
  line: number;
  specifier: string;
}

export interface JsImports {
  imports: JsImport[];
  /** Computed `require(x)` / `import(x)`, by file and line. */
  computed: { file: string; line: number }[];
  /** Files esbuild could not parse (syntax errors). */
  failed: string[];
  /** The build ran past its time budget: nothing from it is known. */
  timedOut: boolean;
}

interface Message {
  id?: string;
  text: string;
  location: { file: string; line: number } | null;
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

export const JS_EXTENSIONS: ReadonlySet<string> = new Set(Object.keys(LOADERS));

function importDetail(detail: unknown): string | null {
  if (typeof detail !== 'object' || detail === null) return null;
  const path = (detail as { importPath?: unknown }).importPath;
  return typeof path === 'string' ? path : null;
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
  const out: JsImports = { imports: [], computed: [], failed: [], timedOut: false };
  if (files.length === 0) return out;
  loaded ??= import('esbuild');
  const esbuild = await loaded;
  const context = await esbuild.context({
    absWorkingDir: root,
    entryPoints: files.map((file) => join(root, file)),
    bundle: true,
    write: false,
    outdir: join(root, '.driftwatch-reachability-out'),
    logLevel: 'silent',
    format: 'esm',
    platform: 'neutral',
    loader: LOADERS,
    tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
    logOverride: { 'unsupported-require-call': 'warning', 'unsupported-dynamic-import': 'warning' },
    plugins: [
      {
        name: 'driftwatch-imports',
        setup(build) {
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
      },
    ],
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
  for (const message of warnings) {
    if (!message.location) continue;
    const { file, line } = message.location;
    const specifier = importDetail(message.detail);
    if (specifier !== null) out.imports.push({ file, line, specifier });
    else if (
      message.id === 'unsupported-require-call' ||
      message.id === 'unsupported-dynamic-import'
    ) {
      out.computed.push({ file, line });
    }
  }
  out.failed = [...new Set(errors.flatMap((e) => (e.location ? [e.location.file] : [])))];
  return out;
}
