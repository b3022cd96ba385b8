#!/usr/bin/env node
// The `driftwatch` command. The offline commands run from a prebuilt bundle (fast-start.cjs);
// everything else registers the TypeScript loader and runs cli/main.ts. CommonJS, like
// fast-start.cjs, because Node starts a CommonJS entry faster than an ES module one.
'use strict';
const { runBundled } = require('./fast-start.cjs');

async function main(argv) {
  const bundled = await runBundled(argv);
  if (bundled !== null) return bundled;
  const { register } = await import('tsx/esm/api');
  register();
  const { runCli } = await import('./main.ts');
  return runCli(argv);
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
