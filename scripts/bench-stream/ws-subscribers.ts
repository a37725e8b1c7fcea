import type { BenchTargets, Report, SubscriberKind, Subscribers } from './subscribers.ts';

/** Sockets opened at once: a burst of thousands of handshakes would only measure the accept queue. */
const OPEN_AT_ONCE = 50;
/** Messages between acknowledgements: well inside the hub's buffer (edge.stream.maxBufferSize). */
const ACK_EVERY = 100;

const CONSENSUS_TIMESTAMP = /"consensus_timestamp":"(\d+)\.(\d+)"/;
const BLOCK_END = /"timestamp":\{"from":"[^"]*","to":"(\d+)\.(\d+)"/;

/**
 * The consensus timestamp of a stream message (a block's last one), read from its text: parsing thousands of
 * transactions a second would slow the one process all subscribers share, and their arrival times with it.
 */
function consensusNs(text: string): bigint | undefined {
  const match = CONSENSUS_TIMESTAMP.exec(text) ?? BLOCK_END.exec(text);
  return match ? BigInt(`${match[1]}${match[2]}`) : undefined;
}

/** The stream a subscriber `i` follows: topics' messages for half, new blocks and accounts' transactions a quarter each. */
function streamPath(targets: BenchTargets, i: number): string {
  const pick = (list: readonly string[]) => list[Math.floor(i / 4) % list.length];
  const topic = pick(targets.topics);
  const account = pick(targets.accounts);
  if (i % 4 === 1 || topic === undefined) return '/api/v1/stream/blocks';
  if (i % 4 === 3 && account !== undefined) return `/api/v1/stream/transactions?account.id=${account}`;
  return `/api/v1/stream/topics/${topic}/messages`;
}

function openOne(url: string, report: Report): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    let received = 0;
    ws.addEventListener('message', (event) => {
      const at = performance.timeOrigin + performance.now();
      received += 1;
      if (received % ACK_EVERY === 0) ws.send(String(received));
      const timestamp = consensusNs(String(event.data));
      if (timestamp !== undefined) report(at, timestamp);
    });
    ws.addEventListener('open', () => resolve(ws), { once: true });
    ws.addEventListener('error', () => reject(new Error(`WebSocket ${url} failed`)), { once: true });
  });
}

/** WebSocket subscribers of `/api/v1/stream/...` (docs/adr/0031-websocket-streams.md). */
export const wsSubscribers: SubscriberKind = {
  name: 'ws',
  async open(targets: BenchTargets, count: number, report: Report): Promise<Subscribers> {
    const base = targets.baseUrl.replace(/^http/, 'ws');
    const sockets: WebSocket[] = [];
    for (let first = 0; first < count; first += OPEN_AT_ONCE) {
      const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, count - first) }, (_, j) =>
        openOne(`${base}${streamPath(targets, first + j)}`, report),
      );
      sockets.push(...(await Promise.all(batch)));
    }
    return {
      async close() {
        await Promise.all(
          sockets.map(
            (ws) =>
              new Promise<void>((resolve) => {
                if (ws.readyState === WebSocket.CLOSED) return resolve();
                ws.addEventListener('close', () => resolve(), { once: true });
                ws.close(1000);
              }),
          ),
        );
      },
    };
  },
};
