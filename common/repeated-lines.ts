export type LogLine = Record<string, unknown>;

interface Window {
  /** The line that opened the window, written when it came. */
  readonly first: LogLine;
  readonly since: number;
  /** Lines like it that came since, held back. */
  held: number;
}

/** How long lines like one just written are held back: at most one line and one summary per failure and window. */
export const REPEAT_WINDOW_MS = 10_000;

/**
 * One log line per failure, not per occurrence: a line whose key was written less than `windowMs` ago is held back
 * and counted, and the count is written once the window has passed, as `repeated` and a `summary` ("12 more like
 * this in the last 10 s") on the next line like it, or on a line of its own when `flush` finds the window over.
 * An outage that fails every request then logs a line and a summary every ten seconds, not a line per request.
 * State is per process (per isolate in a Worker): each keeps its own count.
 */
export class RepeatedLines {
  readonly #windows = new Map<string, Window>();
  readonly #write: (line: LogLine) => void;
  readonly #windowMs: number;
  readonly #now: () => number;

  constructor(write: (line: LogLine) => void, options: { windowMs?: number; now?: () => number } = {}) {
    this.#write = write;
    this.#windowMs = options.windowMs ?? REPEAT_WINDOW_MS;
    this.#now = options.now ?? Date.now;
  }

  /** Writes `line`, or holds it back when a line with the same `key` opened a window still open. */
  write(key: string, line: LogLine): void {
    const at = this.#now();
    this.flush(key);
    const open = this.#windows.get(key);
    if (open && at - open.since < this.#windowMs) {
      open.held++;
      return;
    }
    this.#windows.set(key, { first: line, since: at, held: 0 });
    this.#write(open && open.held > 0 ? { ...line, ...summary(open, at) } : line);
  }

  /** Writes the summary of every window that is over with lines held back (but `except`'s, which a line follows). */
  flush(except?: string): void {
    const at = this.#now();
    for (const [key, window] of this.#windows) {
      if (key === except || at - window.since < this.#windowMs) continue;
      this.#windows.delete(key);
      if (window.held > 0) this.#write({ ...window.first, ...summary(window, at) });
    }
  }
}

function summary(window: Window, at: number): LogLine {
  const seconds = Math.max(1, Math.round((at - window.since) / 1000));
  return { repeated: window.held, summary: `${window.held} more like this in the last ${seconds} s` };
}
