/**
 * Floor Worker of `npm run bench:floor`: the block route's statement for the number at the end of the path, sent
 * as one plain `fetch` in Neon's SQL-over-HTTP protocol (what the driver sends, without the driver), and the
 * database's answer returned as it came. No Worker that reads the block from the database can be faster.
 */
import { BLOCK_BY_NUMBER } from '../../db/queries/blocks.ts';

export * from './durable-classes.ts';

interface Env {
  DATABASE_URL: string;
  DB_LOCAL_PROXY: string;
}

export default {
  async fetch(request, env) {
    const number = request.url.slice(request.url.lastIndexOf('/') + 1);
    const answer = await fetch(`http://${env.DB_LOCAL_PROXY}/sql`, {
      method: 'POST',
      headers: {
        'Neon-Connection-String': env.DATABASE_URL,
        'Neon-Raw-Text-Output': 'true',
        'Neon-Array-Mode': 'true',
      },
      body: JSON.stringify({ query: BLOCK_BY_NUMBER.text, params: [number] }),
    });
    return new Response(await answer.text(), {
      status: answer.status,
      headers: { 'content-type': 'application/json; charset=utf-8' },
    });
  },
} satisfies ExportedHandler<Env>;
