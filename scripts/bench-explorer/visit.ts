/**
 * One page load of the Hiero explorer, replayed: its requests one at a time, each counted with how the edge cache
 * answered it (from the Worker's request lines) and the database statements the page cost (at the SQL proxy).
 */

/** The explorer runs in a browser, on an origin of its own: every read it makes carries that origin. */
const BROWSER = { origin: 'https://explorer.example' };

/** What the Worker said of one request: its path and query, and whether the edge cache answered it. */
export interface RequestLine {
  path: string;
  query: string;
  cache: string | undefined;
}

/** The Worker's request lines as they are printed, for the replay to read back after each page. */
export class RequestLines {
  #pending = '';
  readonly #lines: RequestLine[] = [];

  /** Takes a chunk of the Worker's output (lines may be split across chunks). */
  write(text: string): void {
    const parts = (this.#pending + text).split('\n');
    this.#pending = parts.pop() ?? '';
    for (const part of parts) {
      if (!part.startsWith('{')) continue;
      try {
        const line = JSON.parse(part) as { msg?: string; path?: string; query?: string; cache?: string };
        if (line.msg === 'request')
          this.#lines.push({ path: line.path ?? '', query: line.query ?? '', cache: line.cache });
      } catch {
        // not a JSON line of ours
      }
    }
  }

  /** Lines printed since `mark()` returned `from`. */
  since(from: number): RequestLine[] {
    return this.#lines.slice(from);
  }

  mark(): number {
    return this.#lines.length;
  }
}

/** How one page load went. */
export interface PageResult {
  page: string;
  requests: number;
  /** Requests answered from the edge cache, fresh or stale. */
  edge: number;
  /** Statements the database ran for the page, background revalidations included. */
  statements: number;
  /** Responses by status (a 404 or 400 the explorer asked for is part of its page). */
  statuses: Map<number, number>;
}

/**
 * A page load in progress: `get` always sends (the explorer's tables), `lookup` sends once per page load (the
 * explorer's per-entity caches, which live as long as the page), `post` sends a body.
 */
export class PageVisit {
  readonly #baseUrl: string;
  readonly #looked = new Map<string, Promise<unknown>>();
  readonly statuses = new Map<number, number>();
  requests = 0;

  constructor(baseUrl: string) {
    this.#baseUrl = baseUrl;
  }

  async get<T = unknown>(path: string): Promise<T | undefined> {
    this.requests += 1;
    const response = await fetch(`${this.#baseUrl}/api/v1/${path}`, { headers: BROWSER });
    const text = await response.text();
    this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
    if (response.status !== 200) return undefined;
    return JSON.parse(text) as T;
  }

  lookup<T = unknown>(path: string): Promise<T | undefined> {
    let pending = this.#looked.get(path);
    if (!pending) {
      pending = this.get<T>(path);
      this.#looked.set(path, pending);
    }
    return pending as Promise<T | undefined>;
  }

  async post(path: string, body: unknown): Promise<void> {
    this.requests += 1;
    const response = await fetch(`${this.#baseUrl}/api/v1/${path}`, {
      method: 'POST',
      headers: { ...BROWSER, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await response.arrayBuffer();
    this.statuses.set(response.status, (this.statuses.get(response.status) ?? 0) + 1);
  }
}
