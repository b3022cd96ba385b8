import { existsSync, mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseFeed } from '@rowanmanning/feed-parser';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { FEED_ID, xmlText } from './feed';

const OPERATOR_TOKEN = 'operator-token-for-status-page';
const operator = { authorization: `Bearer ${OPERATOR_TOKEN}` };
const CHROMIUM = '/usr/bin/chromium';

describe('status feed and page', () => {
  let t: TestApp;
  let incidentId: string;
  let entryId: string;
  beforeAll(async () => {
    t = await createTestApp({ operatorToken: OPERATOR_TOKEN });
    const incident = await t.app.inject({
      method: 'POST',
      url: '/api/v1/status/incidents',
      headers: operator,
      payload: {
        title: 'Scans <delayed> & slow',
        impact: 'major',
        body: 'Queue lag is high \u0001.',
      },
    });
    incidentId = incident.json().id;
    const entry = await t.app.inject({
      method: 'POST',
      url: '/api/v1/status/changelog',
      headers: operator,
      payload: {
        kind: 'release',
        title: 'Driftwatch 1.4',
        version: '1.4.0',
        publishedAtUtc: '2026-11-01T10:00:00Z',
      },
    });
    entryId = entry.json().id;
  });
  afterAll(async () => t?.close());

  it('serves a valid Atom 1.0 feed with ids, updated and links', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/status/feed.atom',
      headers: { host: 'status.example' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('application/atom+xml');
    const feed = parseFeed(response.body);
    expect(feed.meta.type).toBe('atom');
    // The parser does not expose the feed's own id: read it with a plain XML parser.
    expect(new XMLParser().parse(response.body).feed.id).toBe(FEED_ID);
    expect(feed.url).toBe('http://status.example/status');
    expect(feed.self).toBe('http://status.example/status/feed.atom');
    const [first, second] = feed.items;
    expect(feed.items).toHaveLength(2);
    // Newest first; the feed's updated is its newest entry's.
    expect(first?.id).toBe(`urn:uuid:${incidentId}`);
    expect(first?.title).toBe('[investigating] Scans <delayed> & slow');
    expect(first?.url).toBe(`http://status.example/status#incident-${incidentId}`);
    expect(first?.updated?.getTime()).toBe(feed.updated?.getTime());
    expect(second?.id).toBe(`urn:uuid:${entryId}`);
    expect(second?.updated?.toISOString()).toBe('2026-11-01T10:00:00.000Z');
    expect(second?.url).toBe(`http://status.example/status#changelog-${entryId}`);
    // A control character the operator typed cannot break the XML.
    expect(response.body).not.toContain('\u0001');
  });

  it('replaces what XML cannot carry', () => {
    expect(xmlText('a\u0001b\ud800c\td')).toBe('a\uFFFDb\uFFFDc\td');
  });

  it('renders the page without JavaScript: components, open incidents, 90 days', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/status' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    expect(response.body).not.toContain('<script');
    expect(response.body).toContain('Scans &lt;delayed&gt; &amp; slow');
    expect(response.body).toContain('Vulnerability data');
    expect(response.body.match(/<li title="/g)).toHaveLength(90);
  });

  if (!existsSync(CHROMIUM)) console.warn(`status page browser test skipped: no ${CHROMIUM}`);
  it.skipIf(!existsSync(CHROMIUM))(
    `renders in headless Chromium (${CHROMIUM}) with JavaScript off and takes a screenshot`,
    async () => {
      const { chromium } = await import('playwright-core');
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
      try {
        const context = await browser.newContext({ javaScriptEnabled: false });
        const page = await context.newPage();
        const response = await page.goto(`${address}/status`);
        expect(response?.status()).toBe(200);
        expect(await page.locator('h1').textContent()).toBe('Driftwatch status');
        expect(await page.locator('ul.components li').count()).toBe(6);
        expect(await page.locator(`#incident-${incidentId} h3`).textContent()).toContain(
          'Scans <delayed> & slow',
        );
        expect(await page.locator('ol.history li').count()).toBe(90);
        const file = join(mkdtempSync(join(tmpdir(), 'status-page-')), 'status.png');
        await page.screenshot({ path: file, fullPage: true });
        expect(statSync(file).size).toBeGreaterThan(1000);
      } finally {
        await browser.close();
      }
    },
    60_000,
  );
});
