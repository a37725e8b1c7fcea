import type { Context } from 'hono';
import swaggerUi from 'swagger-ui-dist/package.json' with { type: 'json' };
import type { AppEnv } from '../../context.ts';
import { notFound } from '../../error-handler.ts';

/** The installed swagger-ui-dist's version: part of every asset's address, so each address always names the same bytes. */
const SWAGGER_UI_VERSION = swaggerUi.version;

/** Where the docs page finds `file` of Swagger UI. */
export function swaggerUiAsset(file: SwaggerUiFile): string {
  return `/api/v1/docs/swagger-ui/${SWAGGER_UI_VERSION}/${file}`;
}

/** The files of swagger-ui-dist the page uses, with their types; the package's other files are not served. */
const FILES = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
} as const;

type SwaggerUiFile = keyof typeof FILES;

/** A versioned address never changes its bytes: browsers and the edge may keep it for a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * GET /api/v1/docs/swagger-ui/:version/:file: a Swagger UI file from the Workers static assets of wrangler.toml
 * (`ASSETS`, the swagger-ui-dist package), with its type and a year's caching; 404 for another version or file.
 * Mounted before the edge cache and the rate limit: the assets binding has its own cache and touches no database.
 */
export async function swaggerUiFile(c: Context<AppEnv>): Promise<Response> {
  const file = c.req.param('file') as string;
  if (c.req.param('version') !== SWAGGER_UI_VERSION || !Object.hasOwn(FILES, file)) return notFound(c);
  const asset = await c.env.ASSETS.fetch(new Request(new URL(`/${file}`, c.req.url), { headers: c.req.raw.headers }));
  if (asset.status !== 200 && asset.status !== 304) throw new Error(`static asset ${file} answered ${asset.status}`);
  const headers = new Headers({ 'cache-control': IMMUTABLE, 'x-content-type-options': 'nosniff' });
  const etag = asset.headers.get('etag');
  if (etag) headers.set('etag', etag);
  if (asset.status === 200) headers.set('content-type', FILES[file as SwaggerUiFile]);
  return new Response(asset.body, { status: asset.status, headers });
}
