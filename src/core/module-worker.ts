import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts the worker thread whose entry is the module `name` beside the caller (`callerUrl` is
 * the caller's `import.meta.url`): the built .js entry (scripts/build.mjs bundles it beside the
 * caller's mirrored file in dist/), or from sources (dev, tests, the CLI under tsx) a small
 * bootstrap that loads tsx in the thread and then the .ts entry (a worker does not inherit the
 * parent's loader, and `--import` hooks do not reach a worker on Node 20).
 */
export function startModuleWorker(callerUrl: string, name: string, options: WorkerOptions): Worker {
  const fromSources = callerUrl.endsWith('.ts');
  const entry = new URL(`./${name}.${fromSources ? 'ts' : 'js'}`, callerUrl);
  if (!fromSources) return new Worker(entry, options);
  // tsx's ES module API beside its loader (`require.resolve` would pick the CommonJS build).
  const tsxLoader = pathToFileURL(createRequire(callerUrl).resolve('tsx'));
  const tsxApi = new URL('./esm/api/index.mjs', tsxLoader).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then((tsx) => tsx.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(entry.href)}));`;
  return new Worker(bootstrap, { ...options, eval: true });
}
