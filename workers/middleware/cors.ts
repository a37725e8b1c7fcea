import { cors } from 'hono/cors';

/**
 * CORS preflight requests, answered by hono's cors(); registered for OPTIONS only, so other requests do not pass
 * through it. Every other response carries `Access-Control-Allow-Origin: *` from where it is built
 * (`workers/respond.ts`; docs/adr/0012): set by a middleware on the context, hono would keep it in a Headers object of
 * its own and copy it into each response, a few percent of a light request's CPU in workerd.
 */
export const answerPreflight = cors();
