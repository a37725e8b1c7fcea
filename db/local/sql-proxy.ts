import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { createHttpServer, type HttpAnswer, type HttpRequest } from './http-server.ts';

export interface SqlProxy {
  /** `host:port` for the Worker's DB_LOCAL_PROXY; the driver posts to `http://<address>/sql`. */
  readonly address: string;
  /** Statements run through the proxy so far (a request answered from the edge cache runs none). */
  readonly queries: number;
  /** HTTP requests that carried SQL so far: a batch is one round trip however many statements it holds. */
  readonly roundTrips: number;
  /**
   * Round trips a client waited for in turn: one that arrives while another is in flight overlaps it and is not
   * counted. With one request at a time, what a request's latency is made of.
   */
  readonly sequentialRoundTrips: number;
  /** Milliseconds added to every round trip (`delayMs` of startSqlProxy); a benchmark moves the database with it. */
  delayMs: number;
  close(): Promise<void>;
}

interface QueryData {
  query: string;
  params?: unknown[];
}

const MAX_PREPARED_STATEMENTS = 2000;

/** Values come back as Postgres text; the driver in the Worker applies its own type parsers, as with Neon. */
const asText = (value: string) => value;
const RAW_TEXT = { getTypeParser: () => asText };

const json = (status: number, body: unknown): HttpAnswer => ({ status, body: JSON.stringify(body) });

/** The connection `url` names, made through the Unix socket in `socketDir` instead of TCP. */
function socketConfig(url: URL, socketDir: string): pg.PoolConfig {
  return {
    host: socketDir,
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    application_name: url.searchParams.get('application_name') ?? undefined,
  };
}

/**
 * A Postgres server the proxy may reach: `host:port` as database URLs name it, and the directory of its Unix socket
 * when it has one the proxy should use (the embedded Postgres has): per statement, loopback TCP costs the proxy and
 * Postgres together 6% more CPU.
 */
export interface ProxyTarget {
  address: string;
  socketDir?: string;
}

const addressOf = (url: URL): string => `${url.hostname}:${url.port || '5432'}`;

/** The server a postgres:// URL names, as a proxy target. */
export function proxyTarget(databaseUrl: string, socketDir?: string): ProxyTarget {
  return { address: addressOf(new URL(databaseUrl)), socketDir };
}

/**
 * Neon's SQL-over-HTTP protocol in front of a plain local Postgres, so the Worker runs the production driver
 * (`neon()` from @neondatabase/serverless) unchanged: one POST per statement, served on pooled connections.
 * Only the servers in `targets` are reachable, and only on loopback.
 */
export async function startSqlProxy(options: {
  port: number;
  targets: ProxyTarget[];
  poolSize?: number;
  /**
   * Milliseconds added to every round trip before it is answered, so a local Worker meets its database as a
   * deployed one far from it does (a Cloudflare location 20-150 ms from the database's region).
   */
  delayMs?: number;
}): Promise<SqlProxy> {
  const targets = new Map(options.targets.map((target) => [target.address, target]));
  const pools = new Map<string, pg.Pool>();
  let queries = 0;
  let roundTrips = 0;
  let sequentialRoundTrips = 0;
  let inFlight = 0;
  let delayMs = options.delayMs ?? 0;
  const distance = () => new Promise<void>((resolve) => setTimeout(resolve, delayMs));

  const poolFor = (connectionString: string): pg.Pool | undefined => {
    let pool = pools.get(connectionString);
    if (!pool) {
      const url = URL.parse(connectionString);
      const target = url && targets.get(addressOf(url));
      if (!url || !target) return undefined;
      // Prepared statements are planned as Postgres decides by default (plan_cache_mode=auto): five executions
      // with plans for their own values, then one plan for all values if it is estimated no costlier. Planning is
      // about half of Postgres' work on a list page. Row limits are in the statement text (db/queries/limit.ts),
      // without which such a plan would assume a tenth of the table is wanted (docs/performance.md).
      const max = options.poolSize ?? 16;
      pool = new pg.Pool(
        target.socketDir ? { ...socketConfig(url, target.socketDir), max } : { connectionString, max },
      );
      pool.on('error', () => {});
      pools.set(connectionString, pool);
    }
    return pool;
  };

  // Each distinct statement text becomes a named prepared statement on every connection that runs it, so
  // Postgres parses it once per connection instead of once per request (the Worker's statements are
  // parameterized: their texts repeat). Past the cap, new texts run unnamed, keeping the proxy's memory bounded.
  const statementNames = new Map<string, string>();
  const nameFor = (text: string): string | undefined => {
    let name = statementNames.get(text);
    if (!name && statementNames.size < MAX_PREPARED_STATEMENTS) {
      name = `s${statementNames.size}`;
      statementNames.set(text, name);
    }
    return name;
  };

  const run = async (client: pg.Pool | pg.PoolClient, data: QueryData) => {
    queries += 1;
    const result = await client.query({
      name: nameFor(data.query),
      text: data.query,
      values: data.params ?? [],
      rowMode: 'array',
      types: RAW_TEXT,
    });
    return {
      command: result.command,
      rowCount: result.rowCount,
      rows: result.rows,
      fields: result.fields.map((f) => ({ name: f.name, dataTypeID: f.dataTypeID })),
      rowAsArray: true,
    };
  };

  const answer = async (request: HttpRequest): Promise<HttpAnswer> => {
    if (request.method !== 'POST' || !request.target.startsWith('/sql')) return json(404, { message: 'not found' });
    roundTrips += 1;
    if (inFlight === 0) sequentialRoundTrips += 1;
    inFlight += 1;
    try {
      if (delayMs > 0) await distance();
      return await execute(request);
    } finally {
      inFlight -= 1;
    }
  };

  const execute = async (request: HttpRequest): Promise<HttpAnswer> => {
    const pool = poolFor(request.headers.get('neon-connection-string') ?? '');
    if (!pool) return json(403, { message: 'database not allowed' });
    let body: QueryData | { queries: QueryData[] };
    try {
      body = JSON.parse(request.body.toString('utf8'));
    } catch {
      return json(400, { message: 'request body is not JSON' });
    }
    try {
      if (!('queries' in body)) return json(200, await run(pool, body));
      // A batch is one transaction, as on Neon.
      const client = await pool.connect();
      try {
        await client.query('begin');
        const results = [];
        for (const query of body.queries) results.push(await run(client, query));
        await client.query('commit');
        return json(200, { results });
      } catch (error) {
        await client.query('rollback').catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    } catch (error) {
      const e = error as pg.DatabaseError;
      return json(400, { message: e.message, code: e.code, detail: e.detail, hint: e.hint, position: e.position });
    }
  };

  const server = createHttpServer(answer);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    get queries() {
      return queries;
    },
    get roundTrips() {
      return roundTrips;
    },
    get sequentialRoundTrips() {
      return sequentialRoundTrips;
    },
    get delayMs() {
      return delayMs;
    },
    set delayMs(ms: number) {
      delayMs = ms;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...pools.values()].map((pool) => pool.end()));
    },
  };
}
