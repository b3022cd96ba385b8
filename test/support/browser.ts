import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Request as BrowserRequest, Page } from 'playwright-core';

/**
 * The browser harness of the web app's end-to-end tests (web/README.md "End-to-end tests"):
 * Debian's Chromium driven by playwright-core, one context as a person uses the app (the CSP
 * enforced, CSP violations collected) and one with bypassCSP used only to inject axe-core.
 * A screen is one `ScreenStep`; `walkScreen` opens it, waits until it is ready, checks it with
 * axe at 1280 px and 390 px, and writes docs/images/ui/<name>.png.
 */

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const WEB_DIST = join(ROOT, 'dist', 'web');
export const SCREENSHOTS = join(ROOT, 'docs', 'images', 'ui');
/** The session storage key the app keeps its token under (web/src/api/session.ts). */
export const TOKEN_KEY = 'driftwatch.apiToken';

export const WIDE = { width: 1280, height: 900 };
export const NARROW = { width: 390, height: 844 };

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** The number of keys in the tab's sessionStorage (the token is the only one the app keeps). */
export const sessionStorageSize = (page: Page) =>
  page.evaluate<number>('window.sessionStorage.length');

/**
 * The options of every browser suite. One retry: in loaded multi-file runs a walk now and then
 * stalls until its limit on a wait that passes alone and on the next attempt (different tests
 * each time; the harness prints any request left unanswered, any 429 and, for an explained walk,
 * the page). Not a cover for a wrong answer: a test failing twice fails the run.
 */
export const BROWSER_SUITE = { timeout: 120_000, retry: 1 } as const;

export interface UiHarness {
  browser: Browser;
  /** The person's tab: the CSP is enforced. */
  page: Page;
  /** Content-Security-Policy violations and page errors seen in the person's tab. */
  problems: string[];
  /**
   * Runs a test's walk; when it fails, prints what the tab showed and its last requests before
   * rethrowing (a wait that times out in a loaded full run is otherwise silent about why).
   */
  explained<T>(walk: () => Promise<T>): Promise<T>;
  /** Signs in through the form, as a person does. */
  signIn(token: string): Promise<void>;
  /** Serious and critical axe violations of `path` at `viewport` (a bypassCSP tab, signed in). */
  axe(
    path: string,
    ready: (page: Page) => Promise<void>,
    viewport?: typeof WIDE,
    signedIn?: boolean,
  ): Promise<AxeViolation[]>;
  close(): Promise<void>;
}

export interface ScreenStep {
  /** The screenshot's name: docs/images/ui/<name>.png (and <name>-390.png). */
  name: string;
  path: string;
  /** Resolves once the screen shows its data (waits on the page, never sleeps). */
  ready: (page: Page) => Promise<void>;
}

/** Why the browser tests cannot run here, or null when they can. */
export function browserTestsUnavailable(): string | null {
  if (!existsSync(CHROMIUM)) return `no ${CHROMIUM} (apt-get install -y chromium; .ci/run does)`;
  if (!existsSync(join(WEB_DIST, 'index.html'))) return 'no dist/web (run npm run build)';
  return null;
}

export async function openHarness(base: string, token: string): Promise<UiHarness> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(join(tmpdir(), 'driftwatch-chromium-'));
  // A fresh profile each run: launchPersistentContext is the way to name the user-data dir.
  const personal: BrowserContext = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: WIDE,
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  const axeSource = readFileSync(
    createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
    'utf8',
  );
  const page = personal.pages()[0] ?? (await personal.newPage());
  // Playwright's 30 s default for each wait is too tight when the suite's other fork loads the
  // two cores (a policy dry run's wait timed out at 30.2 s in CI); under each test's own limit, so
  // a wait that never ends fails as a locator error, explained (`explained`), not as a test timeout.
  personal.setDefaultTimeout(45_000);
  const problems: string[] = [];
  page.on('console', (message) => {
    if (/Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const recent: string[] = [];
  const remember = (line: string) => {
    recent.push(`${new Date().toISOString()} ${line}`);
    if (recent.length > 40) recent.shift();
  };
  // Requests in flight, and a check that names any still unanswered after 15 s (once each): a
  // browser test that hangs in a loaded full run then says on which request.
  const inFlight = new Map<BrowserRequest, number>();
  const reported = new WeakSet<BrowserRequest>();
  page.on('request', (request) => {
    inFlight.set(request, Date.now());
    remember(`-> ${request.method()} ${request.url()}`);
  });
  page.on('requestfinished', (request) => inFlight.delete(request));
  page.on('response', (response) => {
    remember(`<- ${response.status()} ${response.url()}`);
    // The app waits out a 429 (Retry-After, up to a minute): a walk would stall without a word.
    if (response.status() === 429) {
      console.error(
        `browser got 429 (Retry-After ${response.headers()['retry-after']}): ${response.url()}`,
      );
    }
  });
  page.on('requestfailed', (request) => {
    inFlight.delete(request);
    remember(`xx ${request.url()} ${request.failure()?.errorText ?? ''}`);
  });
  const stuckCheck = setInterval(() => {
    for (const [request, since] of inFlight) {
      if (Date.now() - since < 15_000 || reported.has(request)) continue;
      reported.add(request);
      // The same request from Node: an answer means the server is well and the browser's
      // connection is at fault; none means the server holds it.
      const started = Date.now();
      void fetch(request.url(), {
        method: request.method(),
        headers: request.headers(),
        signal: AbortSignal.timeout(10_000),
      })
        .then((response) => `${response.status} from Node in ${Date.now() - started} ms`)
        .catch((error: unknown) => `no answer from Node either (${String(error)})`)
        .then((outcome) =>
          console.error(
            `browser request unanswered after 15 s: ${request.method()} ${request.url()}; ${outcome}`,
          ),
        );
    }
  }, 5_000);
  stuckCheck.unref();

  return {
    browser,
    page,
    problems,
    async explained(walk) {
      const report = async (why: string) => {
        const shown = await page
          .locator('body')
          .innerText({ timeout: 5_000 })
          .catch((reason: unknown) => `(no text: ${String(reason)})`);
        console.error(
          [`browser walk ${why} at ${page.url()}`, 'page text:', shown.slice(0, 3_000)]
            .concat('last requests:', recent, 'problems:', problems)
            .join('\n'),
        );
      };
      // A wait outside Playwright (a fetch, the jobs) has no limit of its own: say where it stands.
      const watchdog = setTimeout(() => void report('still running after 100 s'), 100_000);
      try {
        return await walk();
      } catch (error) {
        await report('failed');
        throw error;
      } finally {
        clearTimeout(watchdog);
      }
    },
    async signIn(secret) {
      await page.goto(`${base}/`);
      await page.getByLabel('API token').fill(secret);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
    },
    async axe(path, ready, viewport = WIDE, signedIn = true) {
      // bypassCSP only here, to inject axe; a context of its own per check (cheap), signed in
      // by putting the token where the app keeps it. Browser code as a string: no DOM types here.
      const axeContext = await browser.newContext({ bypassCSP: true, viewport });
      axeContext.setDefaultTimeout(90_000);
      if (signedIn) {
        await axeContext.addInitScript({
          content: `window.sessionStorage.setItem(${JSON.stringify(TOKEN_KEY)}, ${JSON.stringify(token)});`,
        });
      }
      const tab = await axeContext.newPage();
      try {
        await tab.setViewportSize(viewport);
        await tab.goto(`${base}${path}`);
        await ready(tab);
        await tab.addScriptTag({ content: axeSource });
        const violations = await tab.evaluate<AxeViolation[]>(
          "axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)",
        );
        return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      } finally {
        await axeContext.close();
      }
    },
    async close() {
      clearInterval(stuckCheck);
      await personal.close();
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/**
 * One screen: opened in the person's tab by navigating in the app (history API, no reload),
 * screenshots at both widths, and the axe results at both widths.
 */
/**
 * The screenshots of docs/ui.md, written only when UI_SCREENSHOTS=1 (`UI_SCREENSHOTS=1 npx vitest
 * run test/web`), so that an ordinary test run leaves the working tree as it found it.
 */
export async function keepScreenshot(page: Page, name: string, fullPage = false): Promise<void> {
  if (process.env.UI_SCREENSHOTS !== '1') return;
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage });
}

export async function walkScreen(harness: UiHarness, base: string, step: ScreenStep) {
  const { page } = harness;
  await page.evaluate(
    `window.history.pushState(null, '', ${JSON.stringify(step.path)});` +
      "window.dispatchEvent(new Event('driftwatch:navigate'));",
  );
  await step.ready(page);
  await keepScreenshot(page, step.name, true);
  await page.setViewportSize(NARROW);
  await step.ready(page);
  // Two frames: resize observers (charts redraw at the new width) have run and laid out.
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  const overflow = await page.evaluate<number>(
    'document.documentElement.scrollWidth - window.innerWidth',
  );
  await keepScreenshot(page, `${step.name}-390`);
  await page.setViewportSize(WIDE);
  const wide = await harness.axe(step.path, step.ready, WIDE);
  const narrow = await harness.axe(step.path, step.ready, NARROW);
  return { axe: [...wide, ...narrow], horizontalOverflow: overflow, url: `${base}${step.path}` };
}
