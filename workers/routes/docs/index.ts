import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { strongEtag } from '../../etag.ts';
import document from './openapi.json' with { type: 'json' };
import { swaggerPage } from './page.ts';
import { toYaml } from './yaml.ts';

/** The document changes only with a deployment: clients and the edge may keep it for an hour. */
const CACHE_CONTROL = 'public, max-age=3600';

const encoder = new TextEncoder();

interface Form {
  bytes: Uint8Array;
  etag: string;
}

/** Bytes and ETag of each form, made on first use and kept for the isolate's life. */
const forms = new Map<string, Form>();

function serve(name: string, contentType: string, render: () => string): Response {
  const form: Form = forms.get(name) ?? rendered(render());
  forms.set(name, form);
  return new Response(form.bytes as Uint8Array<ArrayBuffer>, {
    headers: {
      'access-control-allow-origin': '*',
      'content-type': contentType,
      'cache-control': CACHE_CONTROL,
      etag: form.etag,
    },
  });
}

function rendered(text: string): Form {
  const bytes = encoder.encode(text);
  return { bytes, etag: strongEtag(bytes) };
}

const page = () => serve('page', 'text/html; charset=utf-8', swaggerPage);
const yaml = () => serve('yaml', 'text/yaml; charset=utf-8', () => toYaml(document));

/**
 * The API's OpenAPI document (workers/routes/docs/openapi.json, the one place it is kept) as YAML at the
 * reference's addresses (`openapi.yml`, `openapi.yaml`) and as JSON, and the page that renders it (`/docs` and
 * `/docs/`, as the reference answers both). Mounted at `/api/v1`.
 */
export const docsRoutes = new Hono<AppEnv>()
  .get('/docs', page)
  .get('/docs/', page)
  .get('/docs/openapi.yml', yaml)
  .get('/docs/openapi.yaml', yaml)
  .get('/docs/openapi.json', () => serve('json', 'application/json; charset=utf-8', () => JSON.stringify(document)));
