#!/usr/bin/env node
// The `driftwatch` command. The offline commands run from a prebuilt bundle (fast-start.cjs);
// everything else runs the compiled CLI in dist/ (compiled.cjs: built on install, rebuilt when
// the sources changed). No TypeScript loader at run time. CommonJS, like fast-start.cjs, because
// Node starts a CommonJS entry faster than an ES module one.
'use strict';
const { runBundled } = require('./fast-start.cjs');
const { ensureBuilt } = require('./compiled.cjs');

async function main(argv) {
  const bundled = await runBundled(argv);
  if (bundled !== null) return bundled;
  let entry;
  try {
    entry = await ensureBuilt();
  } catch (error) {
    console.error(error.message);
    return 1;
  }
  const { runCli } = await import(entry);
  return runCli(argv);
}

main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
