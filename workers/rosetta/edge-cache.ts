import type { z } from 'zod';
import type { CacheKeys } from '../middleware/cache.ts';
import { goJson } from './go-json/marshal.ts';
import { decodedRequest } from './request/read.ts';

/** Canonical bodies longer than this are not cached (a key is a URL; Mesh reads are a few hundred bytes). */
const MAX_KEY_BODY = 2048;

/**
 * The edge cache's keys for Rosetta reads (docs/adr/0048-rosetta-api-at-the-edge.md): every Mesh endpoint is a
 * POST, so a request is keyed by its path and its body as the reference's server reads it (decoded into the
 * request's struct, written back as Go writes it), so that bodies that mean the same (other key order, spacing,
 * unknown fields) share one entry. Only the endpoints in `cacheable` (paths below `prefix`) are keyed; what an
 * answer may be kept for is its own Cache-Control (blocks below the tip for good, the tip and balances briefly).
 */
export function rosettaCacheKeys(prefix: string, cacheable: ReadonlyMap<string, z.ZodObject>): CacheKeys {
  return {
    methods: ['POST'],
    async key(c) {
      const schema = cacheable.get(c.req.path.slice(prefix.length));
      if (!schema) return undefined;
      const request = await decodedRequest(c, schema);
      if (request === undefined) return undefined;
      const body = goJson(request);
      return body.length > MAX_KEY_BODY ? undefined : `${c.req.path}?${encodeURIComponent(body)}`;
    },
  };
}
