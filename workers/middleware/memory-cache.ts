/** A response as the memory cache keeps it: bytes and headers, rebuilt into a fresh Response on every hit. */
export interface CachedResponse {
  readonly body: Uint8Array;
  readonly headers: readonly [string, string][];
  /** 200 when absent; a final 404 is kept too. */
  readonly status?: number;
}

/** An entry as `get` answers it: the response, when it stops being fresh, and when it is dropped. */
export interface RememberedResponse extends CachedResponse {
  /** Until then (epoch ms) the response is served as it is; from then until `expiresAt`, as a stale copy. */
  readonly freshUntil: number;
  readonly expiresAt: number;
}

interface Entry extends RememberedResponse {
  readonly size: number;
}

/** Header bytes are small next to bodies; a flat allowance keeps the accounting cheap. */
const HEADER_ALLOWANCE = 256;

/**
 * The first tier of the edge cache: responses this isolate produced, kept in its memory until their max-age ends
 * (and, for those that may be served stale, their stale-while-revalidate bound after it), least recently used
 * dropped first once `capacityBytes` is exceeded. A hit costs no subrequest at all, where the
 * Cache API is one subrequest per lookup. Isolates do not share it; the Cache API behind it is shared by the colo.
 */
export class MemoryCache {
  readonly capacityBytes: number;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;

  constructor(capacityBytes: number) {
    this.capacityBytes = capacityBytes;
  }

  get size(): number {
    return this.#entries.size;
  }

  get(key: string, nowMs: number): RememberedResponse | undefined {
    const entry = this.#entries.get(key);
    if (!entry) return undefined;
    this.#remove(key, entry);
    if (entry.expiresAt <= nowMs) return undefined;
    // Re-inserted last: Map iteration order is the recency order.
    this.#entries.set(key, entry);
    this.#bytes += entry.size;
    return entry;
  }

  /** Keeps `response` until `expiresAt`; fresh until `freshUntil` (default: all that time). */
  put(key: string, response: CachedResponse, expiresAt: number, freshUntil = expiresAt): void {
    const size = response.body.byteLength + HEADER_ALLOWANCE;
    if (size > this.capacityBytes) return;
    const previous = this.#entries.get(key);
    if (previous) this.#remove(key, previous);
    this.#entries.set(key, { ...response, freshUntil, expiresAt, size });
    this.#bytes += size;
    for (const [oldest, entry] of this.#entries) {
      if (this.#bytes <= this.capacityBytes) break;
      this.#remove(oldest, entry);
    }
  }

  #remove(key: string, entry: Entry): void {
    this.#entries.delete(key);
    this.#bytes -= entry.size;
  }
}
