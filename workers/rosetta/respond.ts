import { strongEtag } from '../etag.ts';
import type { MeshError, RosettaError } from './errors.ts';
import { goJson } from './go-json/marshal.ts';

/** The content type the Mesh SDK's server writes. */
const MESH_CONTENT_TYPE = 'application/json; charset=UTF-8';

/** The headers the Mesh SDK's CORS middleware puts on every answer of the reference's server. */
export const MESH_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'Origin, X-Requested-With, Content-Type, Accept',
  'access-control-allow-methods': 'GET, POST,OPTIONS',
};

const encoder = new TextEncoder();

/** A body as the reference's server writes it: Go's JSON encoder, with its closing newline. */
const meshBytes = (body: unknown): Uint8Array<ArrayBuffer> =>
  encoder.encode(`${goJson(body)}\n`) as Uint8Array<ArrayBuffer>;

/**
 * A Mesh answer: 200, tagged with its ETag, cacheable at the edge for `maxAge` seconds (0: not stored). The body
 * is built in the Go structs' member order by the caller.
 */
export function meshResponse(body: unknown, maxAge: number): Response {
  const bytes = meshBytes(body);
  return new Response(bytes, {
    status: 200,
    headers: {
      ...MESH_CORS_HEADERS,
      'content-type': MESH_CONTENT_TYPE,
      'cache-control': `public, max-age=${maxAge}`,
      etag: strongEtag(bytes),
    },
  });
}

/** A Mesh `Error` body in the Go struct's member order (`details` only when set). */
function errorBody(error: MeshError): Record<string, unknown> {
  return {
    code: error.code,
    message: error.message,
    retriable: error.retriable,
    ...(error.details && Object.keys(error.details).length > 0 ? { details: error.details } : {}),
  };
}

/** An error answer: HTTP 500 (429 for the rate limit) and the Mesh `Error`, as the reference answers errors. */
export function meshErrorResponse(error: RosettaError): Response {
  return new Response(meshBytes(errorBody(error.body)), {
    status: error.status,
    headers: { ...MESH_CORS_HEADERS, ...error.headers, 'content-type': MESH_CONTENT_TYPE },
  });
}

/** What the reference's router (gorilla/mux) answers for a path it has no route for. */
export function notFoundText(): Response {
  return new Response('404 page not found\n', {
    status: 404,
    headers: { ...MESH_CORS_HEADERS, 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff' },
  });
}
