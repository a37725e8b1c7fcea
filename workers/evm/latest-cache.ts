/**
 * Reads of the latest state shared by the sessions of an isolate (or Durable Object) for a moment, as the
 * reference caches them (entities and tokens 1 s, contract storage 2 s): repeated calls of one contract, or of a
 * token through its redirect, then cost no statement. Historical reads are not shared (each session caches its own).
 */
import type { EvmEntityRow } from '../../db/queries/evm-entities.ts';
import type { TokenRelationshipRow } from '../../db/queries/evm-system-tokens.ts';
import type { SystemFile } from '../routes/network/system-files.ts';
import type { TokenState } from './system/token-state.ts';

/** Entries per cache; beyond it the oldest go first. */
const MAX_ENTRIES = 20_000;

export class TtlCache<V> {
  private readonly entries = new Map<string, { readonly until: number; readonly value: Promise<V> }>();
  private readonly ttlMs: number;

  constructor(ttlMs: number) {
    this.ttlMs = ttlMs;
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = Date.now();
    const entry = this.entries.get(key);
    if (entry && entry.until > now) return entry.value;
    if (entry) this.entries.delete(key);
    const value = load();
    this.entries.set(key, { until: now + this.ttlMs, value });
    // A failed read is not kept: the next session asks again.
    value.catch(() => this.entries.delete(key));
    if (this.entries.size > MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    return value;
  }
}

export interface LatestCaches {
  /** Entity rows by id. */
  readonly entities: TtlCache<EvmEntityRow | undefined>;
  /** Entity ids by EVM address (hex). */
  readonly entityIds: TtlCache<bigint | undefined>;
  /** Storage values by contract id and slot (hex). */
  readonly slots: TtlCache<Uint8Array | undefined>;
  /** Tokens by id. */
  readonly tokens: TtlCache<TokenState | undefined>;
  /** Token relationships (`token_account`) by account id and token id: balances, association, KYC and freeze. */
  readonly relationships: TtlCache<TokenRelationshipRow | undefined>;
  /** Files 0.0.112 (exchange rate) and 0.0.111 (fee schedule), decoded: what every priced system write reads. */
  readonly feeFiles: TtlCache<(SystemFile | undefined)[]>;
}

const ENTITY_TTL_MS = 1_000;
const TOKEN_TTL_MS = 1_000;
const SLOT_TTL_MS = 2_000;

export function createLatestCaches(): LatestCaches {
  return {
    entities: new TtlCache(ENTITY_TTL_MS),
    entityIds: new TtlCache(ENTITY_TTL_MS),
    slots: new TtlCache(SLOT_TTL_MS),
    tokens: new TtlCache(TOKEN_TTL_MS),
    relationships: new TtlCache(TOKEN_TTL_MS),
    feeFiles: new TtlCache(TOKEN_TTL_MS),
  };
}
