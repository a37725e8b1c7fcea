import { z } from 'zod';

/** Cloudflare's Durable Object location hints: where an object is created the first time it is reached. */
const locationHintSchema = z.enum([
  'wnam',
  'enam',
  'sam',
  'weur',
  'eeur',
  'apac',
  'apac-ne',
  'apac-se',
  'oc',
  'afr',
  'me',
]);

/** The options `DurableObjectNamespace.get` takes, spelled here so Node's tests can import this module. */
type GetOptions = { locationHint: z.infer<typeof locationHintSchema> } | undefined;

const reported = new Set<string>();

/**
 * Options for `namespace.get(id, …)` that create an object next to the database (`DATABASE_LOCATION_HINT`, the
 * hint nearest the database's region): the objects that query it (EvmExecutor: tens of statements a call) or sit on
 * every cache miss before the query (RateLimiter) then pay the distance to the database once per request, not per
 * statement or twice. Unset, an object is created near whoever reaches it first. An unknown value is reported once
 * per isolate and ignored, so a typo costs placement, never availability. See docs/adr/0023-topology.md.
 */
export function nearDatabase(hint: string | undefined): GetOptions {
  if (hint === undefined || hint === '') return undefined;
  const parsed = locationHintSchema.safeParse(hint);
  if (parsed.success) return { locationHint: parsed.data };
  if (!reported.has(hint)) {
    reported.add(hint);
    console.log(JSON.stringify({ msg: 'DATABASE_LOCATION_HINT ignored: not a location hint', level: 'error', hint }));
  }
  return undefined;
}
