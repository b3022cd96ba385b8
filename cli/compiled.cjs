// The compiled CLI (and service) in dist/, built by scripts/build.mjs on install and by
// `npm run build`. A build older than the sources (a checkout, an edit) is rebuilt before it
// runs, as the offline bundle is (fast-start.cjs): checking costs a stat per input file, a few
// milliseconds. A build that cannot be refreshed (a read-only install) still runs, with a warning;
// no build at all is an error that says how to make one. docs/build.md.
'use strict';
const { readFileSync, statSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { pathToFileURL } = require('node:url');

const ROOT = resolve(__dirname, '..');
const DIST = join(ROOT, 'dist');
const MANIFEST = join(DIST, 'manifest.json');
const ENTRY = join(DIST, 'cli', 'main.js');
const BUILD_SCRIPT = join(ROOT, 'scripts', 'build.mjs');
const FORMAT = 1;

function readManifest() {
  try {
    return JSON.parse(readFileSync(MANIFEST, 'utf8'));
  } catch {
    return null;
  }
}

/** True when dist/ was built from inputs that have not changed size or mtime since. */
function isFresh(manifest) {
  if (!manifest || manifest.format !== FORMAT || !Array.isArray(manifest.inputs)) return false;
  for (const input of manifest.inputs) {
    if (!Array.isArray(input) || typeof input[0] !== 'string') return false;
    const [path, mtimeMs, size] = input;
    try {
      const info = statSync(join(ROOT, path));
      if (info.mtimeMs !== mtimeMs || info.size !== size) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function exists(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Builds dist/ when it is missing or stale; returns the CLI entry's URL. */
async function ensureBuilt() {
  if (isFresh(readManifest()) && exists(ENTRY)) return pathToFileURL(ENTRY).href;
  // A build installed without its sources (the container image, Dockerfile): nothing to be
  // stale against, and nothing to rebuild from.
  if (!exists(BUILD_SCRIPT) && exists(ENTRY)) return pathToFileURL(ENTRY).href;
  const say = process.stderr.isTTY ? (line) => process.stderr.write(`${line}\n`) : () => {};
  try {
    const { build } = await import(pathToFileURL(BUILD_SCRIPT).href);
    say('The sources changed since the last build: rebuilding dist/ …');
    // The service only: the web app (dist/web) is built by `npm run build` and on install, and a
    // stale-source rebuild stays a second or two.
    await build({ log: say, web: false });
  } catch (error) {
    if (!exists(ENTRY)) {
      throw new Error(
        `No build in ${DIST} and it could not be built (${error.message}). Run: npm run build`,
      );
    }
    process.stderr.write(
      `Warning: ${DIST} is older than the sources and could not be rebuilt (${error.message}); running it as it is.\n`,
    );
  }
  return pathToFileURL(ENTRY).href;
}

module.exports = { ensureBuilt, isFresh, readManifest };
