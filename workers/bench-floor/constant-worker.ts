/**
 * Floor Worker of `npm run bench:floor`: every request is answered with `FLOOR_BODY` (the real Worker's answer to
 * the measured URL) and nothing else is done. No Worker that answers that URL can be faster in this runtime.
 */
export * from './durable-classes.ts';

interface Env {
  FLOOR_BODY: string;
}

export default {
  fetch: (_request, env) =>
    new Response(env.FLOOR_BODY, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
} satisfies ExportedHandler<Env>;
