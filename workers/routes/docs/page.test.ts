import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../../test/harness/headless-browser.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';
import document from './openapi.json' with { type: 'json' };

const { worker } = registerWorkerSuite();

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
}, 120_000);
afterAll(() => browser?.close());

const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/** Every operation of the served document, as Swagger UI labels it: `GET /api/v1/accounts`. */
const operations = Object.entries(document.paths)
  .flatMap(([route, item]) =>
    Object.keys(item)
      .filter((key) => METHODS.has(key))
      .map((method) => `${method.toUpperCase()} ${route}`),
  )
  .sort();

/**
 * Every WebSocket stream the Worker serves (the paths its stream sub-app registers, read from its source: the module
 * needs the Workers runtime's types), as the page names it: `/api/v1/stream/topics/{topicId}/messages`.
 */
const streams = [
  ...readFileSync(new URL('../stream/index.ts', import.meta.url), 'utf8').matchAll(/\.get\('(\/[^']*)'/g),
].map(([, route]) => `/api/v1/stream${route?.replace(/:(\w+)/g, '{$1}')}`);

describe('the docs page in a headless browser', () => {
  it('renders every operation of the document and the WebSocket streams, with no request to another origin', async () => {
    const origin = new URL(worker.baseUrl).origin;
    const elsewhere: string[] = [];
    const context = await browser.newContext();
    try {
      await context.route('**/*', (route) => {
        if (new URL(route.request().url()).origin === origin) return route.continue();
        elsewhere.push(route.request().url());
        return route.abort('blockedbyclient');
      });
      // data: URLs (the stylesheet's icons) are part of the page, not requests to an origin.
      context.on('request', (request) => {
        const url = new URL(request.url());
        if (url.protocol !== 'data:' && url.origin !== origin) elsewhere.push(request.url());
      });
      const page = await context.newPage();
      const failed: string[] = [];
      page.on('requestfailed', (request) => failed.push(`${request.url()}: ${request.failure()?.errorText}`));
      await page.goto(`${worker.baseUrl}/api/v1/docs`);
      await page.locator('.opblock').first().waitFor({ timeout: 30_000 });
      const rendered = await page
        .locator('.opblock-summary')
        .evaluateAll((summaries) =>
          summaries.map(
            (summary) =>
              `${summary.querySelector('.opblock-summary-method')?.textContent} ${summary.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
          ),
        );
      expect([...new Set(rendered)].sort()).toEqual(operations);
      // Below the operations, the WebSocket streams: every URL, the acknowledgement and the close codes.
      const section = page.locator('#websocket-streams');
      await section.waitFor({ state: 'visible' });
      const described = ((await section.textContent()) ?? '').replace(/\s+/g, ' ');
      expect(streams).toHaveLength(4);
      for (const stream of streams) expect(described).toContain(stream);
      expect(described).toContain('number of messages it has received');
      for (const code of ['1008', '1011']) expect(described).toContain(code);
      expect(await page.title()).toBe('edge-mirror REST API');
      expect(failed).toEqual([]);
      expect(elsewhere).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
