import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The web app's build (web/README.md): sources in web/, output in dist/web with content-hashed
 * names under assets/ (served immutable by src/http/web-app.ts); index.html is the only
 * unhashed file. No inline scripts or styles, so the strict Content-Security-Policy holds.
 */
const root = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root,
  base: '/',
  publicDir: false,
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: fileURLToPath(new URL('../dist/web', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    assetsDir: 'assets',
    // A CSP without 'unsafe-inline': never inline assets as data: scripts or styles.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    reportCompressedSize: false,
    // dist/web/.vite/manifest.json: which chunks each entry loads (test/web/bundle-size.test.ts).
    manifest: true,
  },
});
