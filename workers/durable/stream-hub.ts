import { DurableObject } from 'cloudflare:workers';
import { createDatabase } from '../../db/client.ts';
import type { Env } from '../env.ts';
import { failureLines } from '../failure-line.ts';
import { HISTORY_PAGE, historyPage } from '../stream/history.ts';
import { decodeOpening, OPENING_HEADER } from '../stream/opening.ts';
import { isAfter, later, through } from '../stream/position.ts';
import { streamConfig } from '../stream/settings.ts';
import { deliverBatch, type SocketState, sendItems } from '../stream/socket-state.ts';
import { STREAM_TAIL_NAME, streamKey } from '../stream/subscription.ts';
import type { Batch } from '../stream/tail-round.ts';
import { nearDatabase } from './location-hint.ts';

/** Close codes: 1008 (policy) for a client too slow or sending what is no acknowledgement, 1011 for our failure. */
const CLOSE_POLICY = 1008;
const CLOSE_ERROR = 1011;
/** How long a subscriber with a full buffer is waited for before it is closed as too slow. */
const ACK_WAIT_MS = 10_000;
/** Storage key of `#through`. */
const THROUGH = 'through';

/**
 * Holds the WebSockets of the stream keys that hash to it (`streamHubName`), hibernating between batches
 * (docs/adr/0031-websocket-streams.md). A socket first gets what it missed (its resume position up to the tail's
 * watermark, read page by page with the REST lists' statements), then the tail's batches: each row once, in order,
 * as its REST list writes it. A client acknowledges by sending the number of messages it has received, and is never
 * sent more than `edge.stream.maxBufferSize` beyond that: what a batch holds past that limit is left in the database,
 * and the socket reads it like history, at the pace of its acknowledgements. One that acknowledges nothing for
 * `ACK_WAIT_MS` with its buffer full is closed, so nothing is buffered for a slow client without bound.
 */
export class StreamHub extends DurableObject<Env> {
  /** The tail's watermark as last heard; unknown after hibernation until the next batch. */
  #latest: bigint | undefined;
  /** Where the last batch this hub handled ended (stored: live sockets' positions are only written when they move). */
  #through: bigint | undefined;
  /** False until the first batch after the object (re)started: that one visits every socket. */
  #awake = false;
  /** Sockets whose history is being read. */
  readonly #readingHistory = new Set<WebSocket>();
  /** Wakes a history reader waiting for an acknowledgement. */
  readonly #ackWaiters = new Map<WebSocket, () => void>();

  override async fetch(request: Request): Promise<Response> {
    const opening = decodeOpening(request.headers.get(OPENING_HEADER) ?? '');
    const key = streamKey(opening.subscription);
    const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
    this.ctx.acceptWebSocket(server, [key]);
    const state: SocketState = {
      subscription: opening.subscription,
      key,
      position: null,
      live: false,
      sent: 0,
      acked: 0,
    };
    server.serializeAttachment(state);
    const namespace = this.env.STREAM_TAIL;
    const tail = namespace.get(namespace.idFromName(STREAM_TAIL_NAME), nearDatabase(this.env.DATABASE_LOCATION_HINT));
    const hub = new URL(request.url).hostname;
    const start = tail.register(hub, key).then(
      (watermark) => {
        this.#heard(watermark);
        const current = readState(server);
        if (!current) return;
        current.position = opening.resume ?? through(watermark);
        server.serializeAttachment(current);
        return this.#readHistory(server);
      },
      (error: unknown) => fail(server, error),
    );
    this.ctx.waitUntil(start);
    return new Response(null, { status: 101, webSocket: client });
  }

  /**
   * The tail's batch: sent on to the live sockets of its keys; answers the keys this hub has no socket for. When it
   * continues the batch before (`from` is where that one ended) only the sockets of keys with rows are visited: a live
   * socket stands at least at the end of the last batch, whatever its stored position says (it was live for every
   * batch since, and they held nothing for it). Otherwise, and first after a wake (history readers do not survive
   * hibernation), every socket is visited, and one behind `from` reads the gap like history.
   */
  async deliver(batch: Batch): Promise<string[]> {
    // First: a socket whose buffer fills on this batch reads the rest of it as history, up to the new watermark.
    this.#heard(batch.to);
    this.#through ??= await this.ctx.storage.get<bigint>(THROUGH);
    const base = this.#through;
    const continues = this.#awake && base === batch.from;
    const sockets = continues
      ? Object.entries(batch.items).flatMap(([key, items]) => (items.length > 0 ? this.ctx.getWebSockets(key) : []))
      : this.ctx.getWebSockets();
    const maxBuffer = streamConfig(this.env).edge.stream.maxBufferSize;
    for (const ws of sockets) this.#deliverTo(ws, batch, base, maxBuffer);
    this.#awake = true;
    this.#through = batch.to;
    await this.ctx.storage.put(THROUGH, batch.to);
    return Object.keys(batch.items).filter((key) => this.ctx.getWebSockets(key).length === 0);
  }

  #deliverTo(ws: WebSocket, batch: Batch, base: bigint | undefined, maxBuffer: number): void {
    const state = readState(ws);
    if (!state?.position) return;
    if (!state.live) {
      if (!this.#readingHistory.has(ws)) void this.#readHistory(ws);
      return;
    }
    const delivery = deliverBatch(state, batch, base, maxBuffer, (text) => ws.send(text));
    if (delivery === 'nothing') return;
    // Behind: a batch it did not get (the hub or the tail restarted). Full: the rest of this one. Both are read like
    // history, at the client's pace.
    if (delivery !== 'sent') state.live = false;
    ws.serializeAttachment(state);
    if (!state.live) void this.#readHistory(ws);
  }

  override webSocketMessage(ws: WebSocket, message: string | ArrayBuffer): void {
    const state = readState(ws);
    if (!state) return;
    const count = typeof message === 'string' && /^\d{1,15}$/.test(message.trim()) ? Number(message) : undefined;
    if (count === undefined || count > state.sent) {
      ws.close(CLOSE_POLICY, 'Expected the number of messages received');
      return;
    }
    state.acked = Math.max(state.acked, count);
    ws.serializeAttachment(state);
    this.#ackWaiters.get(ws)?.();
  }

  override webSocketClose(ws: WebSocket, code: number): void {
    this.#readingHistory.delete(ws);
    this.#ackWaiters.get(ws)?.();
    // 1005 and 1006 say no code was sent; they cannot be sent back.
    const reply = code === 1005 || code === 1006 ? 1000 : code;
    try {
      ws.close(reply, 'closed');
    } catch {
      // already closed
    }
  }

  override webSocketError(ws: WebSocket): void {
    this.#readingHistory.delete(ws);
    this.#ackWaiters.get(ws)?.();
  }

  /** Waits up to `ACK_WAIT_MS` for the socket's buffer to have room; true when it has. */
  async #acknowledged(ws: WebSocket, maxBuffer: number): Promise<boolean> {
    const deadline = Date.now() + ACK_WAIT_MS;
    for (;;) {
      const state = readState(ws);
      if (!state || ws.readyState !== WebSocket.OPEN) return false;
      if (state.sent - state.acked < maxBuffer) return true;
      const left = deadline - Date.now();
      if (left <= 0) return false;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#ackWaiters.set(ws, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.#ackWaiters.delete(ws);
    }
  }

  #heard(watermark: bigint): void {
    if (this.#latest === undefined || watermark > this.#latest) this.#latest = watermark;
  }

  /**
   * Sends a socket what lies between its position and the tail's watermark, a page at a time, until it has reached
   * the watermark (which may move on meanwhile), then marks it live: from there on the batches carry it.
   */
  async #readHistory(ws: WebSocket): Promise<void> {
    if (this.#readingHistory.has(ws)) return;
    this.#readingHistory.add(ws);
    const config = streamConfig(this.env);
    const db = createDatabase({ url: this.env.DATABASE_URL, localProxy: this.env.DB_LOCAL_PROXY });
    try {
      for (;;) {
        const target = this.#latest;
        let state = readState(ws);
        if (target === undefined || !state?.position || ws.readyState !== WebSocket.OPEN) return;
        if (!isAfter(through(target), state.position)) {
          state.live = true;
          ws.serializeAttachment(state);
          return;
        }
        const maxBuffer = config.edge.stream.maxBufferSize;
        if (state.sent - state.acked >= maxBuffer && !(await this.#acknowledged(ws, maxBuffer))) {
          console.log(JSON.stringify({ msg: 'stream subscriber too slow', level: 'warn', key: state.key, maxBuffer }));
          ws.close(CLOSE_POLICY, `Subscriber too slow: more than ${maxBuffer} messages unacknowledged`);
          return;
        }
        const page = await historyPage(db, state.subscription, state.position, target, config);
        // Read again: an acknowledgement may have arrived while the page was read.
        state = readState(ws);
        if (!state?.position || ws.readyState !== WebSocket.OPEN) return;
        const complete = sendItems(state, page, maxBuffer, (text) => ws.send(text));
        if (complete && page.length < HISTORY_PAGE) state.position = later(state.position, through(target));
        ws.serializeAttachment(state);
      }
    } catch (error) {
      fail(ws, error);
    } finally {
      this.#readingHistory.delete(ws);
    }
  }
}

function readState(ws: WebSocket): SocketState | undefined {
  return (ws.deserializeAttachment() as SocketState | null) ?? undefined;
}

function fail(ws: WebSocket, error: unknown): void {
  const message = (error as Error).message;
  failureLines.write(`stream ${message}`, { msg: 'stream failed', level: 'error', error: message });
  try {
    ws.close(CLOSE_ERROR, 'Internal error');
  } catch {
    // already closed
  }
}
