/**
 * `npm run bench:web-overview`: the web app's first load of the Overview, measured in the browser
 * (docs/ui.md#speed; target: under 1 s on the embedded database with a tenant of 50 repositories
 * and 20,000 dependencies). The service (embedded database, seeded through the test scenarios)
 * serves dist/web (`npm run build` first); headless Chromium opens `/` signed in, in a fresh
 * context each run (cold cache), and reads the time from navigation start to the Overview's
 * `driftwatch:overview-data` mark (its three calls answered) and `driftwatch:overview-rendered`
 * (the body's first paint with the data: the first load). Baseline in the same run: GET /api/v1/dashboards/global from Node,
 * the one call the Overview cannot do without. Median and worst of BENCH_RUNS (default 7).
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { CHROMIUM, CHROMIUM_ARGS, TOKEN_KEY, WEB_DIST, WIDE } from '../test/support/browser';
import {
  createTestApp,
  importJsonl,
  insertRepository,
  npmRange,
  osvRecord,
  scanWith,
} from '../test/support/scenarios';
import { median } from './report';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const REPOSITORIES = 50;
const DEPENDENCIES_EACH = 400;

async function seed() {
  const t = await createTestApp({}, { webAppDir: WEB_DIST });
  const tenant = await t.createTenant('enterprise', 'Acme');
  await importJsonl(
    t,
    Array.from({ length: 20 }, (_, n) =>
      osvRecord({
        id: `GHSA-bench-${String(n).padStart(4, '0')}`,
        databaseSeverity: (['CRITICAL', 'HIGH', 'MODERATE', 'LOW'] as const)[n % 4],
        affected: [npmRange(`pkg-${n * 7}`, '0', '2.0.0')],
      }),
    ),
  );
  for (let r = 0; r < REPOSITORIES; r++) {
    const id = await insertRepository(t, tenant.tenantId, `service-${String(r).padStart(2, '0')}`);
    const deps = Array.from({ length: DEPENDENCIES_EACH }, (_, n) => ({
      name: `pkg-${(n + r * 13) % 1200}`,
      version: `${1 + (n % 3)}.${n % 10}.0`,
    }));
    await scanWith(t, tenant.tenantId, id, deps, r === REPOSITORIES - 1 ? 'all' : undefined);
  }
  return { t, tenant };
}

async function main(): Promise<void> {
  if (!existsSync(WEB_DIST)) throw new Error('dist/web is missing: run `npm run build` first');
  const seeding = performance.now();
  const { t, tenant } = await seed();
  console.log(
    `seeded ${REPOSITORIES} repositories x ${DEPENDENCIES_EACH} dependencies in ${((performance.now() - seeding) / 1000).toFixed(1)} s`,
  );
  const base = await t.app.listen({ host: '127.0.0.1', port: 0 });
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  const api: number[] = [];
  const data: number[] = [];
  const visible: number[] = [];
  try {
    for (let run = 0; run < RUNS; run++) {
      const started = performance.now();
      const response = await fetch(`${base}/api/v1/dashboards/global`, {
        headers: { authorization: `Bearer ${tenant.token}` },
      });
      await response.json();
      api.push(performance.now() - started);

      const context = await browser.newContext({ viewport: WIDE });
      await context.addInitScript({
        content: `window.sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(tenant.token)});`,
      });
      const page = await context.newPage();
      await page.goto(`${base}/`);
      await page.getByRole('heading', { name: 'Most exposed repositories' }).waitFor();
      const marks = await page.evaluate<{ data: number; rendered: number }>(
        "({ data: performance.getEntriesByName('driftwatch:overview-data')[0]?.startTime ?? -1, rendered: performance.getEntriesByName('driftwatch:overview-rendered')[0]?.startTime ?? -1 })",
      );
      if (marks.data < 0 || marks.rendered < 0) throw new Error('the Overview set no marks');
      data.push(marks.data);
      visible.push(marks.rendered);
      await context.close();
    }
  } finally {
    await browser.close();
    await t.close();
  }
  const worst = (values: number[]) => Math.max(...values);
  const line = (label: string, values: number[]) =>
    `${label}: median ${median(values).toFixed(0)} ms, worst ${worst(values).toFixed(0)} ms`;
  console.log(`runs: ${RUNS}, each in a fresh browser context (cold cache)`);
  console.log(line('baseline GET /api/v1/dashboards/global from Node', api));
  console.log(line('Overview data mark (navigation start to data)', data));
  console.log(line('Overview rendered (navigation start to its first paint with data)', visible));
  console.log(
    `ratio of the Overview's first load to the baseline call: ${(median(visible) / median(api)).toFixed(1)}; target under 1000 ms: ${median(visible) < 1000 ? 'met' : 'NOT met'}`,
  );
}

await main();
