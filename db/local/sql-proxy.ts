import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { createHttpServer, type HttpAnswer, type HttpRequest } from './http-server.ts';
import { PgConnection, type PgResult, type PgStatement, type PgTarget } from './pg-connection.ts';

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

const json = (status: number, body: unknown): HttpAnswer => ({ status, body: JSON.stringify(body) });

/** Neon's answer to one statement: values as Postgres' text, rows as arrays; the driver in the Worker parses them. */
const answerOf = (result: PgResult) => ({
  command: result.command,
  rowCount: result.rowCount,
  rows: result.rows,
  fields: result.fields,
  rowAsArray: true,
});

/** The connection `url` names, through the Unix socket in `socketDir` when there is one instead of TCP. */
function pgTarget(url: URL, socketDir: string | undefined): PgTarget {
  const port = Number(url.port || 5432);
  return {
    ...(socketDir ? { socketPath: `${socketDir}/.s.PGSQL.${port}` } : { host: url.hostname, port }),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.slice(1)),
    applicationName: url.searchParams.get('application_name') ?? undefined,
    sslMode: url.searchParams.get('sslmode') ?? undefined,
  };
}

/**
 * The connections to one database. A statement goes to an idle connection, else to a new one while fewer than
 * `size` are open, else to the one with the fewest statements in flight, behind which it is pipelined: a few busy
 * connections answer many statements for less CPU, in the proxy and in Postgres, than one connection each.
 */
class PipelinedPool {
  readonly #target: PgTarget;
  readonly #size: number;
  #open: PgConnection[] = [];
  readonly #opening: Promise<PgConnection>[] = [];
  #turn = 0;
  #closed = false;

  constructor(target: PgTarget, size: number) {
    this.#target = target;
    this.#size = size;
  }

  async run(statements: readonly PgStatement[]): Promise<PgResult[]> {
    return (await this.#connection()).run(statements);
  }

  close(): Promise<unknown> {
    this.#closed = true;
    return Promise.all(
      [...this.#open, ...this.#opening].map(async (c) => (await c).close()).map((p) => p.catch(() => {})),
    );
  }

  #connection(): PgConnection | Promise<PgConnection> {
    if (this.#open.some((connection) => connection.closed)) this.#open = this.#open.filter((c) => !c.closed);
    let least: PgConnection | undefined;
    for (const connection of this.#open) if (!least || connection.inFlight < least.inFlight) least = connection;
    const count = this.#open.length + this.#opening.length;
    if (least && (least.inFlight === 0 || count >= this.#size)) return least;
    if (count >= this.#size) return this.#opening[this.#turn++ % this.#opening.length] as Promise<PgConnection>;
    const opening = PgConnection.open(this.#target);
    this.#opening.push(opening);
    const settled = () => this.#opening.splice(this.#opening.indexOf(opening), 1);
    opening.then((connection) => {
      settled();
      if (this.#closed) void connection.close();
      else this.#open.push(connection);
    }, settled);
    return opening;
  }
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
  /** Connections per database; twice the cores by default (Postgres runs no more statements at once than that). */
  poolSize?: number;
  /**
   * Milliseconds added to every round trip before it is answered, so a local Worker meets its database as a
   * deployed one far from it does (a Cloudflare location 20-150 ms from the database's region).
   */
  delayMs?: number;
}): Promise<SqlProxy> {
  const targets = new Map(options.targets.map((target) => [target.address, target]));
  const pools = new Map<string, PipelinedPool>();
  let queries = 0;
  let roundTrips = 0;
  let sequentialRoundTrips = 0;
  let inFlight = 0;
  let delayMs = options.delayMs ?? 0;
  const distance = () => new Promise<void>((resolve) => setTimeout(resolve, delayMs));

  const poolFor = (connectionString: string): PipelinedPool | undefined => {
    let pool = pools.get(connectionString);
    if (!pool) {
      const url = URL.parse(connectionString);
      const target = url && targets.get(addressOf(url));
      if (!url || !target) return undefined;
      // Every statement text becomes a named prepared statement on each connection that runs it (pg-connection.ts),
      // so Postgres parses it once per connection instead of once per request, and plans it as it decides by
      // default (plan_cache_mode=auto): five executions with plans for their own values, then one plan for all
      // values if it is estimated no costlier. Row limits are in the statement text (db/queries/limit.ts), without
      // which such a plan would assume a tenth of the table is wanted (docs/adr/0009).
      pool = new PipelinedPool(pgTarget(url, target.socketDir), options.poolSize ?? 2 * availableParallelism());
      pools.set(connectionString, pool);
    }
    return pool;
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
    const batch = 'queries' in body;
    const statements = ('queries' in body ? body.queries : [body]).map((q) => ({
      text: q.query,
      params: q.params ?? [],
    }));
    queries += statements.length;
    try {
      // A batch is one transaction, as on Neon: its statements share one Sync.
      const results = await pool.run(statements);
      return json(200, batch ? { results: results.map(answerOf) } : answerOf(results[0] as PgResult));
    } catch (error) {
      const e = error as Error & { code?: string; detail?: string; hint?: string; position?: string };
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
      await Promise.all([...pools.values()].map((pool) => pool.close()));
    },
  };
}
