/** A response body with what is needed to answer from it again, and until when it is fresh. */
export interface CachedResponse {
  body: ArrayBuffer;
  headers: [string, string][];
  expiresMs: number;
}

/**
 * The isolate's own least-recently-used store of fresh responses, in front of the Workers Cache API: a hot URL is
 * answered from memory, with no I/O at all. Bounded in bytes; an entry lives no longer than its max-age, so it
 * is never staler than what the Cache API would serve.
 */
export class MemoryCache {
  private readonly entries = new Map<string, CachedResponse>();
  private readonly maxBytes: number;
  private bytes = 0;

  constructor(maxBytes: number) {
    this.maxBytes = maxBytes;
  }

  get(key: string, nowMs: number): CachedResponse | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.expiresMs <= nowMs) {
      this.bytes -= entry.body.byteLength;
      return undefined;
    }
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, entry: CachedResponse): void {
    if (entry.body.byteLength > this.maxBytes / 16) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.bytes -= previous.body.byteLength;
    }
    this.entries.set(key, entry);
    this.bytes += entry.body.byteLength;
    for (const [oldest, old] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= old.body.byteLength;
    }
  }
}
