import { DurableObject } from 'cloudflare:workers';
import { createDatabase } from '../../db/client.ts';
import type { Env } from '../env.ts';
import { failureLines } from '../failure-line.ts';
import type { StreamItem } from '../stream/item.ts';
import { streamConfig } from '../stream/settings.ts';
import { latestWatermark, type Round, readRound, type Watermark } from '../stream/tail-round.ts';
import { nearDatabase } from './location-hint.ts';

const REGISTRATION = 'reg:';
const WATERMARK = 'watermark';

/**
 * The one reader of the database for every WebSocket stream (docs/adr/0031-websocket-streams.md). Hubs register
 * the stream keys they have sockets for; while any are registered, an alarm every `edge.stream.interval` runs a
 * round (`readRound`: one statement to notice new record files, then one per kind with subscribers) and hands each
 * hub its rows, empty batches included, so every hub's subscribers move on to the same watermark. A hub answers
 * with the keys it no longer has sockets for, which are dropped; with none left the alarm stops, and an idle
 * mirror costs no statements. Registrations and the watermark are stored, so a restarted tail goes on where it was.
 */
export class StreamTail extends DurableObject<Env> {
  /** Stream keys by hub name, loaded from storage on first use. */
  #hubs: Map<string, Set<string>> | undefined;
  #watermark: Watermark | undefined;
  /** The round in progress: a registration waits for it, so a new key is in every round that follows its answer. */
  #round: Promise<void> | undefined;
  /** Registrations so far, and the count at the last registration of each `hub|key`. */
  #registrations = 0;
  readonly #registeredAt = new Map<string, number>();

  /**
   * Adds `key` to what `hub` is sent, and answers the watermark from which it will be: every row of the key after
   * it comes in the hub's next batches.
   */
  async register(hub: string, key: string): Promise<bigint> {
    const hubs = await this.#load();
    const keys = hubs.get(hub) ?? new Set<string>();
    hubs.set(hub, keys);
    this.#registrations += 1;
    this.#registeredAt.set(`${hub}|${key}`, this.#registrations);
    if (!keys.has(key)) {
      keys.add(key);
      await this.ctx.storage.put(`${REGISTRATION}${hub}|${key}`, true);
    }
    await this.#round;
    const watermark = await this.#currentWatermark();
    if ((await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + streamConfig(this.env).edge.stream.interval);
    }
    return watermark.end;
  }

  override async alarm(): Promise<void> {
    failureLines.flush();
    const hubs = await this.#load();
    if (hubs.size === 0) return;
    // Rounds start `interval` apart (a round that takes longer is followed at once), not `interval` after the last.
    const started = Date.now();
    let delay = streamConfig(this.env).edge.stream.interval;
    const round = this.#runRound(hubs).then((behind) => {
      if (behind) delay = 0;
    });
    this.#round = round;
    try {
      await round;
    } finally {
      this.#round = undefined;
    }
    if (hubs.size > 0) await this.ctx.storage.setAlarm(Math.max(Date.now(), started + delay));
  }

  /** One round and its deliveries; true when more record files wait than a round reads. */
  async #runRound(hubs: Map<string, Set<string>>): Promise<boolean> {
    const started = Date.now();
    const config = streamConfig(this.env);
    const db = createDatabase({ url: this.env.DATABASE_URL, localProxy: this.env.DB_LOCAL_PROXY });
    let round: Round | undefined;
    try {
      const keys = new Set([...hubs.values()].flatMap((set) => [...set]));
      round = await readRound(db, await this.#currentWatermark(), keys, config);
    } catch (error) {
      const message = (error as Error).message;
      failureLines.write(`stream tail ${message}`, { msg: 'stream tail round failed', level: 'error', error: message });
      return false;
    }
    if (!round) return false;
    const readMs = Date.now() - started;
    this.#watermark = round.watermark;
    await this.ctx.storage.put(WATERMARK, round.watermark);
    const found = round;
    let rows = 0;
    for (const list of found.items.values()) rows += list.length;
    const deliveries = [...hubs].map(async ([hub, keys]) => {
      const items: Record<string, readonly StreamItem[]> = {};
      for (const key of keys) items[key] = found.items.get(key) ?? [];
      const namespace = this.env.STREAM_HUB;
      const stub = namespace.get(namespace.idFromName(hub), nearDatabase(this.env.DATABASE_LOCATION_HINT));
      const askedAt = this.#registrations;
      const gone = await stub.deliver({ from: found.from, to: found.to, items });
      // A key registered again while the hub answered has a socket now.
      await this.#drop(
        hub,
        gone.filter((key) => (this.#registeredAt.get(`${hub}|${key}`) ?? 0) <= askedAt),
      );
    });
    const failed = (await Promise.allSettled(deliveries)).filter((result) => result.status === 'rejected').length;
    log({
      msg: 'stream tail round',
      level: failed > 0 ? 'warn' : 'info',
      block: Number(found.watermark.index),
      statements: found.statements,
      rows,
      hubs: hubs.size,
      failedHubs: failed,
      readMs,
      ms: Date.now() - started,
    });
    return found.behind;
  }

  async #drop(hub: string, keys: readonly string[]): Promise<void> {
    const held = this.#hubs?.get(hub);
    if (!held) return;
    for (const key of keys) {
      held.delete(key);
      this.#registeredAt.delete(`${hub}|${key}`);
    }
    if (held.size === 0) this.#hubs?.delete(hub);
    if (keys.length > 0) await this.ctx.storage.delete(keys.map((key) => `${REGISTRATION}${hub}|${key}`));
  }

  async #currentWatermark(): Promise<Watermark> {
    this.#watermark ??= await this.ctx.storage.get<Watermark>(WATERMARK);
    if (!this.#watermark) {
      const db = createDatabase({ url: this.env.DATABASE_URL, localProxy: this.env.DB_LOCAL_PROXY });
      this.#watermark = await latestWatermark(db);
      await this.ctx.storage.put(WATERMARK, this.#watermark);
    }
    return this.#watermark;
  }

  async #load(): Promise<Map<string, Set<string>>> {
    if (this.#hubs) return this.#hubs;
    const hubs = new Map<string, Set<string>>();
    for (const name of (await this.ctx.storage.list({ prefix: REGISTRATION })).keys()) {
      const [hub, key] = name.slice(REGISTRATION.length).split('|');
      if (hub === undefined || key === undefined) continue;
      const keys = hubs.get(hub) ?? new Set<string>();
      keys.add(key);
      hubs.set(hub, keys);
    }
    this.#hubs ??= hubs;
    return this.#hubs;
  }
}

const log = (line: Record<string, unknown>) => console.log(JSON.stringify(line));
