import pg from 'pg';
import { connectionLossHandler } from './connection-loss.ts';
import { sleep } from './sleep.ts';
import { isDatabaseUnavailable, SourceUnavailableError } from './transient-errors.ts';

export type Log = (fields: Record<string, unknown>) => void;

export interface ResilientRunOptions {
  readonly databaseUrl: string;
  /**
   * One run of the ingest on a connected client (and a second one with `secondConnection`); it resumes from the
   * cursor the database holds.
   */
  readonly run: (client: pg.Client, secondClient: pg.Client | undefined) => Promise<void>;
  readonly secondConnection?: boolean;
  readonly signal: AbortSignal;
  readonly log: Log;
  /** First wait after a failure; it doubles with every failure in a row up to `maxWaitMs`. */
  readonly initialWaitMs?: number;
  readonly maxWaitMs?: number;
  /** Milliseconds between the probes of a database that is down, during a wait. */
  readonly probeIntervalMs?: number;
}

/** How often a wait for the database looks whether it answers again. */
const PROBE_INTERVAL_MS = 250;
/** A probe that has not connected by then counts as no answer. */
const PROBE_TIMEOUT_MS = 2_000;

/** The database as log lines name it: host, port and database, never the credentials. */
export function databaseLabel(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}${parsed.pathname}`;
  } catch {
    return 'the database';
  }
}

/**
 * Runs the ingest until it ends or is stopped, surviving its database and its source: when the connection is lost or
 * cannot be made, or the source cannot be read, it logs what is unavailable and how long it waits, waits (with
 * exponential backoff), connects a new client and runs again from the cursor. Every file is written with its
 * cursor in one transaction (docs/adr/0006), so a run cut anywhere resumes exactly after the last file committed.
 * Failures of any other kind end the run with their error. A run that lasted longer than the longest wait starts
 * the backoff over. The backoff paces the log lines and the retries of a database that answers; a database that
 * was down is probed during the wait, which ends as soon as it answers again (`waitForDatabase`).
 */
export async function runResiliently(options: ResilientRunOptions): Promise<void> {
  const { signal, log } = options;
  const initialWaitMs = options.initialWaitMs ?? 500;
  const maxWaitMs = options.maxWaitMs ?? 30_000;
  const database = databaseLabel(options.databaseUrl);
  const probeIntervalMs = options.probeIntervalMs ?? PROBE_INTERVAL_MS;
  let failures = 0;
  while (!signal.aborted) {
    const clients = [new pg.Client({ connectionString: options.databaseUrl })];
    if (options.secondConnection) clients.push(new pg.Client({ connectionString: options.databaseUrl }));
    for (const client of clients) client.on('error', connectionLossHandler(signal, log));
    const [client, secondClient] = clients as [pg.Client, pg.Client | undefined];
    const started = Date.now();
    let connected = false;
    try {
      for (const each of clients) await each.connect();
      connected = true;
      if (failures > 0) log({ msg: 'database connected', database, after: failures });
      await options.run(client, secondClient);
      return;
    } catch (error) {
      if (signal.aborted) return;
      const unavailable = unavailableOf(error, database);
      if (!unavailable) throw error;
      if (Date.now() - started > maxWaitMs) failures = 0;
      const waitMs = Math.min(maxWaitMs, initialWaitMs * 2 ** failures);
      failures++;
      log({
        msg: `${unavailable.what} unavailable`,
        level: 'warn',
        ...unavailable.fields,
        waitMs,
        error: message(error),
      });
      if (unavailable.what === 'database') {
        await waitForDatabase(options.databaseUrl, { waitMs, probeIntervalMs, seenDown: !connected, signal });
      } else {
        await sleep(waitMs, signal);
      }
    } finally {
      for (const each of clients) await each.end().catch(() => {});
    }
  }
}

/**
 * Waits up to `waitMs` for a database that failed, probing it every `probeIntervalMs`; the wait ends as soon as a
 * probe connects once the database has been seen down (by the failed connection, `seenDown`, or by a probe before).
 * A database seen answering all along (a session it ended, say) is waited out in full, so a failure that repeats at
 * once is retried at the backoff's pace, not in a tight loop.
 */
export async function waitForDatabase(
  url: string,
  options: { waitMs: number; probeIntervalMs: number; seenDown: boolean; signal: AbortSignal },
): Promise<void> {
  const { signal } = options;
  const deadline = Date.now() + options.waitMs;
  let seenDown = options.seenDown;
  while (!signal.aborted) {
    const left = deadline - Date.now();
    if (left <= 0) return;
    await sleep(Math.min(options.probeIntervalMs, left), signal);
    if (signal.aborted || Date.now() >= deadline) return;
    const answers = await databaseAnswers(url, Math.min(PROBE_TIMEOUT_MS, deadline - Date.now()));
    if (answers && seenDown) return;
    if (!answers) seenDown = true;
  }
}

/** Whether a connection to the database can be made now: opened and closed at once, its errors swallowed. */
async function databaseAnswers(url: string, timeoutMs: number): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: Math.max(1, timeoutMs) });
  client.on('error', () => {});
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

function unavailableOf(
  error: unknown,
  database: string,
): { what: string; fields: Record<string, unknown> } | undefined {
  if (error instanceof SourceUnavailableError) return { what: 'source', fields: {} };
  if (isDatabaseUnavailable(error)) return { what: 'database', fields: { database } };
  return undefined;
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));
