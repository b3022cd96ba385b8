import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

/**
 * The JavaScript the first screen (sign-in, then the Overview) loads stays under 150 KB
 * gzipped (issue 31): the entry chunk, the Overview's lazily loaded chunk, and every chunk
 * either imports statically, read from Vite's manifest of the build in dist/web.
 */

const WEB = fileURLToPath(new URL('../../dist/web/', import.meta.url));
const MANIFEST = join(WEB, '.vite', 'manifest.json');
const BUDGET_BYTES = 150 * 1024;

interface Chunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

/** The files a manifest key loads before it runs: itself and its static imports, transitively. */
export function staticClosure(manifest: Record<string, Chunk>, keys: string[]): Set<string> {
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`no chunk ${key} in the manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

const built = existsSync(MANIFEST);
if (!built) console.warn('first-screen size test skipped: no dist/web (run npm run build)');

describe.skipIf(!built)('the first screen JavaScript', () => {
  it('is under 150 KB gzipped, and the other screens are separate chunks', () => {
    const manifest: Record<string, Chunk> = JSON.parse(readFileSync(MANIFEST, 'utf8'));
    const files = staticClosure(manifest, ['index.html', 'src/screens/Overview.tsx']);
    const js = [...files].filter((file) => file.endsWith('.js'));
    const gzipped = js.reduce(
      (sum, file) => sum + gzipSync(readFileSync(join(WEB, file))).length,
      0,
    );
    console.log(`first screen: ${js.length} files, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeGreaterThan(0);
    expect(gzipped).toBeLessThan(BUDGET_BYTES);
    // Lazy loading holds: the Repositories screen is not part of the first load.
    const repositories = manifest['src/screens/Repositories.tsx'];
    expect(repositories).toBeDefined();
    expect(files.has(repositories?.file ?? '')).toBe(false);
  });

  it('follows static imports transitively (the closure a budget relies on)', () => {
    const manifest: Record<string, Chunk> = {
      'index.html': { file: 'a.js', imports: ['_b'] },
      _b: { file: 'b.js', imports: ['_c'] },
      _c: { file: 'c.js' },
      lazy: { file: 'd.js' },
    };
    expect([...staticClosure(manifest, ['index.html'])]).toEqual(['a.js', 'b.js', 'c.js']);
    expect(() => staticClosure(manifest, ['missing'])).toThrow();
  });
});
