import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_SUITE, CHROMIUM, CHROMIUM_ARGS } from '../support/browser';

/**
 * VirtualTable (web/src/components/VirtualTable.tsx) keeps 20,000 rows smooth: a page of only
 * the table is built with the app's Vite config and scrolled top to bottom in Chromium. Only the
 * rows in view are in the DOM, and scrolling frames stay short.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const skip = existsSync(CHROMIUM) ? null : `no ${CHROMIUM}`;
if (skip) console.warn(`virtual table browser test skipped: ${skip}`);

describe.skipIf(skip !== null)('a VirtualTable of 20,000 rows in Chromium', BROWSER_SUITE, () => {
  let out: string;
  let script: string;
  let css: string;

  beforeAll(async () => {
    out = mkdtempSync(join(tmpdir(), 'virtual-table-'));
    const vite = await import('vite');
    await vite.build({
      configFile: join(ROOT, 'web', 'vite.config.ts'),
      logLevel: 'warn',
      build: {
        outDir: out,
        manifest: false,
        rollupOptions: { input: join(ROOT, 'web', 'src', 'dev', 'virtual-table-fixture.tsx') },
      },
    });
    const assets = readdirSync(join(out, 'assets'));
    script = readFileSync(join(out, 'assets', assets.find((f) => f.endsWith('.js')) ?? ''), 'utf8');
    css = readFileSync(join(out, 'assets', assets.find((f) => f.endsWith('.css')) ?? ''), 'utf8');
  }, 120_000);
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('renders only the rows in view and scrolls to the last row in short frames', async () => {
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const files: Record<string, [string, string]> = {
        '/': [
          'text/html',
          '<!doctype html><html lang="en"><head><title>t</title><link rel="stylesheet" href="/app.css"></head><body><div id="app"></div><script type="module" src="/app.js"></script></body></html>',
        ],
        '/app.js': ['text/javascript', script],
        '/app.css': ['text/css', css],
      };
      await page.route('http://fixture.test/**', (route) => {
        const file = files[new URL(route.request().url()).pathname];
        return file ? route.fulfill({ contentType: file[0], body: file[1] }) : route.abort();
      });
      await page.goto('http://fixture.test/');
      const table = page.getByRole('table', { name: 'Dependencies' });
      await table.waitFor();
      expect(await table.getAttribute('aria-rowcount')).toBe('20001');
      // 200 scroll steps top to bottom, one animation frame each: the longest frames are timed.
      const frames = await page.evaluate<number[]>(`(async () => {
        const body = document.querySelector('.vtable-body');
        const times = [];
        const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
        await frame();
        for (let step = 1; step <= 200; step++) {
          const started = performance.now();
          body.scrollTop = (body.scrollHeight - body.clientHeight) * step / 200;
          await frame();
          times.push(performance.now() - started);
        }
        return times;
      })()`);
      const rendered = await page.locator('.vtable-body [role="row"]').count();
      expect(rendered).toBeGreaterThan(10);
      expect(rendered).toBeLessThan(80);
      await page.getByRole('row').filter({ hasText: 'package-19999' }).waitFor();
      const sorted = [...frames].sort((a, b) => a - b);
      const p95 = sorted[Math.floor(sorted.length * 0.95)] ?? Number.POSITIVE_INFINITY;
      console.log(
        `20,000 rows: ${rendered} rows in the DOM, scroll frame p95 ${p95.toFixed(1)} ms`,
      );
      // Two frames at 60 Hz, with room for a busy 2-core machine.
      expect(p95).toBeLessThan(50);
    } finally {
      await browser.close();
    }
  }, 90_000);
});
