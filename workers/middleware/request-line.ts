import { pathAndQuery } from '../request-url.ts';

/**
 * How the edge cache treated a request: answered fresh (`hit`) or stale while it is read again (`stale`), sent on
 * (`miss`, or `off` with no cache to use), or the edge's own reading again of a stale answer (`revalidate`).
 */
export type CacheOutcome = 'hit' | 'stale' | 'miss' | 'off' | 'revalidate';

/** The rate limiter's decision on a request. */
export type RateLimitOutcome = 'allowed' | 'limited' | 'off';

export interface RequestLine {
  method: string;
  url: string;
  status: number;
  ms: number;
  cache: CacheOutcome;
  /** Absent when the request never reached the limiter (a cached answer). */
  rateLimit?: RateLimitOutcome | undefined;
}

/** Where a line goes and when: `batchMs` 0 writes it at once; `waitUntil` keeps the request alive for a late write. */
export interface LineWriting {
  batchMs: number;
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/**
 * Characters of a path or a query a log line keeps. URLs may be as long as the runtime accepts (100 KB of repeated
 * parameters is a valid request); past this, the start says what was asked and the length how much there was.
 */
export const LOGGED_URL_PART_CHARS = 1024;

/** Lines a batch holds at most: past this the batch is written at once, whatever its delay. */
export const MAX_BATCHED_LINES = 256;

const cut = (text: string): string =>
  text.length <= LOGGED_URL_PART_CHARS ? text : `${text.slice(0, LOGGED_URL_PART_CHARS)}…(${text.length} chars)`;

/** Lines waiting to be written together. */
interface Batch {
  lines: string[];
}

/**
 * The isolate's open batch. Each batch is written once: by its timer, or by the line that fills it. The timer runs
 * in the request that opened the batch, which `waitUntil` keeps alive until then; nothing settles a promise of one
 * request from another (workerd cancels the continuations of such a promise).
 */
let open: Batch | undefined;

function write(batch: Batch): void {
  if (open === batch) open = undefined;
  const lines = batch.lines;
  batch.lines = [];
  if (lines.length > 0) console.log(lines.join('\n'));
}

function writeLine(text: string, writing: LineWriting): void {
  const { batchMs, waitUntil } = writing;
  if (batchMs <= 0 || !waitUntil) {
    // Lines already waiting go first: the log keeps the requests' order.
    if (open) write(open);
    console.log(text);
    return;
  }
  if (open) {
    open.lines.push(text);
    if (open.lines.length >= MAX_BATCHED_LINES) write(open);
    return;
  }
  const batch: Batch = { lines: [text] };
  open = batch;
  waitUntil(new Promise<void>((resolve) => setTimeout(resolve, batchMs)).then(() => write(batch)));
}

/**
 * One structured line per request: what was asked, what was answered, and how long it took. Each line is one JSON
 * object; batched lines are written together, one per text line, in the order of their requests.
 */
export function logRequest(line: RequestLine, writing: LineWriting = { batchMs: 0 }): void {
  const { path, query } = pathAndQuery(line.url);
  writeLine(
    JSON.stringify({
      msg: 'request',
      method: line.method,
      path: cut(path),
      query: cut(query),
      status: line.status,
      ms: Math.round(line.ms * 10) / 10,
      cache: line.cache,
      rateLimit: line.rateLimit,
    }),
    writing,
  );
}
