import { describe, expect, it } from 'vitest';
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

  it('renders the document with Swagger UI loaded from a CDN', async () => {
    for (const url of ['/api/v1/docs', '/api/v1/docs/']) {
      const res = await worker.get(url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(res.body).toContain('https://cdn.jsdelivr.net/npm/swagger-ui-dist@');
      expect(res.body).toContain("url: '/api/v1/docs/openapi.json'");
    }
  });
});
