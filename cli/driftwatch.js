#!/usr/bin/env node
// The `driftwatch` command. The offline commands run from a prebuilt bundle (fast-start.js);
// everything else registers the TypeScript loader and runs cli/main.ts.
import { runBundled } from './fast-start.js';

const argv = process.argv.slice(2);
const bundled = await runBundled(argv);
if (bundled !== null) {
  process.exitCode = bundled;
} else {
  const { register } = await import('tsx/esm/api');
  register();
  const { runCli } = await import('./main.ts');
  process.exitCode = await runCli(argv);
}
