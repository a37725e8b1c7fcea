import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import swaggerUi from 'swagger-ui-dist/package.json' with { type: 'json' };
import { describe, expect, it } from 'vitest';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { REPO_ROOT } from '../../../scripts/local-stack/worker-process.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';
import document from './openapi.json' with { type: 'json' };
import { toYaml } from './yaml.ts';

const { worker } = registerWorkerSuite();

describe('GET /api/v1/docs', () => {
  it('serves the OpenAPI document as JSON, cacheable for an hour', async () => {
    const res = await worker.get('/api/v1/docs/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
    expect(res.headers.get('etag')).toMatch(/^"/);
    expect(res.body).toEqual(document);
  });

  it('serves the same document as YAML at the addresses the reference uses', async () => {
    for (const name of ['openapi.yml', 'openapi.yaml']) {
      const res = await worker.get(`/api/v1/docs/${name}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/yaml; charset=utf-8');
      expect(res.body).toBe(toYaml(document));
    }
  });

  it('answers a repeated request with the ETag it was given with 304', async () => {
    const first = await worker.get('/api/v1/docs/openapi.yml');
    const again = await worker.get('/api/v1/docs/openapi.yml', { 'if-none-match': first.headers.get('etag') ?? '' });
    expect(again.status).toBe(304);
  });

  it('renders the document with Swagger UI served by the Worker itself', async () => {
    for (const url of ['/api/v1/docs', '/api/v1/docs/']) {
      const res = await worker.get(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.body).toContain("url: '/api/v1/docs/openapi.json'");
      const addresses = [...(res.body as string).matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      expect(addresses).toEqual([
        `${ASSETS}/favicon-32x32.png`,
        `${ASSETS}/swagger-ui.css`,
        `${ASSETS}/swagger-ui-bundle.js`,
      ]);
    }
  });
});

const ASSETS = `/api/v1/docs/swagger-ui/${swaggerUi.version}`;
const dist = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));

describe('GET /api/v1/docs/swagger-ui/:version/:file', () => {
  it("serves the package's files with their types, cacheable for a year", async () => {
    const types = {
      'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
      'swagger-ui.css': 'text/css; charset=utf-8',
      'favicon-32x32.png': 'image/png',
    };
    for (const [file, type] of Object.entries(types)) {
      const res = await fetch(`${worker.baseUrl}${ASSETS}/${file}`);
      expect(res.status, file).toBe(200);
      expect(res.headers.get('content-type'), file).toBe(type);
      expect(res.headers.get('cache-control'), file).toBe('public, max-age=31536000, immutable');
      expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(path.join(dist, file))), file).toBe(true);
    }
  });

  it('answers a repeated request with the ETag it was given with 304', async () => {
    const first = await fetch(`${worker.baseUrl}${ASSETS}/swagger-ui.css`);
    await first.arrayBuffer();
    const etag = first.headers.get('etag') ?? '';
    expect(etag).not.toBe('');
    const again = await fetch(`${worker.baseUrl}${ASSETS}/swagger-ui.css`, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('comes from the bundle: the Worker has no static assets, whose router every request would pass first', () => {
    const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(REPO_ROOT, 'wrangler.toml'));
    expect(workerOptions.assets).toBeUndefined();
  });

  it("answers 404 for another version, another of the package's files, or a path outside it", async () => {
    for (const url of [
      '/api/v1/docs/swagger-ui/1.0.0/swagger-ui.css',
      `${ASSETS}/package.json`,
      `${ASSETS}/index.html`,
      `${ASSETS}/..%2Fpackage.json`,
      `${ASSETS}/constructor`,
    ]) {
      const res = await worker.get(url);
      expect(res.status, url).toBe(404);
      expect(res.body, url).toEqual({ _status: { messages: [{ message: 'Not found' }] } });
    }
  });
});
