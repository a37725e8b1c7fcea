/** A test's WebSocket subscriber: keeps every message, acknowledges each (unless told not to), records the close. */
export interface StreamClient {
  // biome-ignore lint/suspicious/noExplicitAny: tests compare stream messages with REST list elements of every shape.
  readonly messages: any[];
  readonly closed: Promise<{ code: number; reason: string }>;
  /** Resolves once `predicate` holds for the messages so far; rejects after `timeoutMs`. */
  // biome-ignore lint/suspicious/noExplicitAny: as above
  waitFor(predicate: (messages: any[]) => boolean, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}

export function openStreamClient(url: string, options: { acknowledge?: boolean } = {}): Promise<StreamClient> {
  const acknowledge = options.acknowledge ?? true;
  const ws = new WebSocket(url);
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const messages: any[] = [];
  const waiters = new Set<() => void>();
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    ws.addEventListener('close', (event) => {
      resolve({ code: event.code, reason: event.reason });
      for (const wake of waiters) wake();
    });
  });
  ws.addEventListener('message', (event) => {
    messages.push(JSON.parse(String(event.data)));
    if (acknowledge) ws.send(String(messages.length));
    for (const wake of waiters) wake();
  });
  return new Promise((resolve, reject) => {
    ws.addEventListener('error', () => reject(new Error(`WebSocket ${url} failed`)), { once: true });
    ws.addEventListener('open', () =>
      resolve({
        messages,
        closed,
        waitFor(predicate, timeoutMs) {
          return new Promise<void>((done, fail) => {
            const check = () => {
              if (predicate(messages)) finish(done);
              else if (ws.readyState === WebSocket.CLOSED) finish(() => fail(new Error(`${url} closed`)));
            };
            const timer = setTimeout(
              () => finish(() => fail(new Error(`${url}: timed out with ${messages.length} messages`))),
              timeoutMs,
            );
            const finish = (then: () => void) => {
              clearTimeout(timer);
              waiters.delete(check);
              then();
            };
            waiters.add(check);
            check();
          });
        },
        async close() {
          if (ws.readyState === WebSocket.CLOSED) return;
          ws.close(1000);
          await closed;
        },
      }),
    );
  });
}
