/**
 * Floor Worker of `npm run bench:floor`: the block route's statement for the number at the end of the path, run
 * through Neon's driver as the real Worker runs it (`sql.query`, array mode, full results), and the row returned as
 * JSON. No framework, settings, formatting, log line or headers: what the production driver costs on its own.
 */
import { neon, neonConfig } from '@neondatabase/serverless';
import { BLOCK_BY_NUMBER } from '../../db/queries/blocks.ts';

export * from './durable-classes.ts';

interface Env {
  DATABASE_URL: string;
  DB_LOCAL_PROXY: string;
}

let query: ReturnType<typeof neon> | undefined;

export default {
  async fetch(request, env) {
    if (!query) {
      neonConfig.fetchEndpoint = () => `http://${env.DB_LOCAL_PROXY}/sql`;
      query = neon(env.DATABASE_URL);
    }
    const number = request.url.slice(request.url.lastIndexOf('/') + 1);
    const result = (await query.query(BLOCK_BY_NUMBER.text, [number], { arrayMode: true, fullResults: true })) as {
      rows: unknown[][];
    };
    return new Response(JSON.stringify(result.rows[0] ?? null), {
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  },
} satisfies ExportedHandler<Env>;
