import type { Context } from 'hono';
import favicon from 'swagger-ui-dist/favicon-32x32.png';
import swaggerUi from 'swagger-ui-dist/package.json' with { type: 'json' };
import styles from 'swagger-ui-dist/swagger-ui.css';
import script from 'swagger-ui-dist/swagger-ui-bundle.js';
import type { AppEnv } from '../../context.ts';
import { notFound } from '../../error-handler.ts';
import { strongEtag } from '../../etag.ts';
import { ifNoneMatchHits } from '../../if-none-match.ts';

/** The installed swagger-ui-dist's version: part of every asset's address, so each address always names the same bytes. */
const SWAGGER_UI_VERSION = swaggerUi.version;

/** Where the docs page finds `file` of Swagger UI. */
export function swaggerUiAsset(file: SwaggerUiFile): string {
  return `/api/v1/docs/swagger-ui/${SWAGGER_UI_VERSION}/${file}`;
}

/**
 * The files of swagger-ui-dist the page uses, with their types, bundled into the Worker as Data modules
 * (wrangler.toml `[[rules]]`); the package's other files are not served.
 */
const FILES = {
  'swagger-ui-bundle.js': { bytes: script, type: 'text/javascript; charset=utf-8' },
  'swagger-ui.css': { bytes: styles, type: 'text/css; charset=utf-8' },
  'favicon-32x32.png': { bytes: favicon, type: 'image/png' },
} as const;

type SwaggerUiFile = keyof typeof FILES;

/** A versioned address never changes its bytes: browsers and the edge may keep it for a year without asking again. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Each file's ETag, hashed on its first request in the isolate (a few milliseconds for the script). */
const etags = new Map<SwaggerUiFile, string>();

/**
 * GET /api/v1/docs/swagger-ui/:version/:file: a Swagger UI file from the Worker's own bundle, with its type, its
 * ETag (304 on a match) and a year's caching; 404 for another version or file. Mounted before the edge cache and
 * the rate limit: it touches no database, and copies in each isolate's memory tier would only crowd out API answers.
 * Uncompressed: Cloudflare's front line compresses it for clients that accept it (docs/adr/0046).
 */
export function swaggerUiFile(c: Context<AppEnv>): Response | Promise<Response> {
  const name = c.req.param('file') as string;
  if (c.req.param('version') !== SWAGGER_UI_VERSION || !Object.hasOwn(FILES, name)) return notFound(c);
  const file = name as SwaggerUiFile;
  const { bytes, type } = FILES[file];
  let etag = etags.get(file);
  if (etag === undefined) {
    etag = strongEtag(bytes);
    etags.set(file, etag);
  }
  const headers = { 'cache-control': IMMUTABLE, 'x-content-type-options': 'nosniff', etag };
  if (ifNoneMatchHits(c.req.header('if-none-match'), etag)) return new Response(null, { status: 304, headers });
  return new Response(bytes, { headers: { ...headers, 'content-type': type } });
}
