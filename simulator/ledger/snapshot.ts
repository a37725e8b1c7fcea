/**
 * The whole ledger model as JSON and back, so a continued run (`--continue`) carries on from exactly the state the
 * earlier run stopped in. Every own field of the Ledger is saved, private ones included, so a field added later is
 * saved too; bigints, bytes, maps, sets and pools are tagged (`{"$n": "12"}`, `{"$b": "ab"}`, `{"$m": [[k, v]]}`,
 * `{"$s": […]}`, `{"$p": […]}`) and come back as what they were, in the same iteration order, which keeps a
 * continued run deterministic. Indexes derived from other fields are rebuilt rather than saved.
 */
import { Ledger } from './ledger.ts';
import { Pool } from './pool.ts';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function encode(value: unknown): Json {
  if (typeof value === 'bigint') return { $n: String(value) };
  if (value instanceof Uint8Array) return { $b: Buffer.from(value).toString('hex') };
  if (value instanceof Map) return { $m: [...value].map(([k, v]) => [encode(k), encode(v)]) };
  if (value instanceof Set) return { $s: [...value].map(encode) };
  if (value instanceof Pool) return { $p: value.values().map(encode) };
  if (Array.isArray(value)) return value.map(encode);
  if (value === undefined || value === null) return null;
  if (typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [key, field] of Object.entries(value)) if (field !== undefined) out[key] = encode(field);
    return out;
  }
  if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string') return value;
  throw new Error(`ledger snapshot: cannot save a ${typeof value}`);
}

function decode(value: Json): unknown {
  if (Array.isArray(value)) return value.map(decode);
  if (value === null || typeof value !== 'object') return value;
  const tagged = (tag: string) => (tag in value ? value[tag] : undefined);
  const n = tagged('$n');
  if (typeof n === 'string') return BigInt(n);
  const b = tagged('$b');
  if (typeof b === 'string') return new Uint8Array(Buffer.from(b, 'hex'));
  const m = tagged('$m');
  if (Array.isArray(m)) return new Map(m.map((entry) => (entry as Json[]).map(decode) as [unknown, unknown]));
  const s = tagged('$s');
  if (Array.isArray(s)) return new Set(s.map(decode));
  const p = tagged('$p');
  if (Array.isArray(p)) {
    const pool = new Pool<unknown>();
    for (const item of p) pool.add(decode(item));
    return pool;
  }
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, decode(field)]));
}

/**
 * Fields rebuilt from the others on restore: `serialsByOwner` from the NFTs, `evmAddresses` and `keyAliases` from the
 * accounts and contracts.
 */
const DERIVED = new Set(['serialsByOwner', 'evmAddresses', 'keyAliases']);

export function saveLedger(ledger: Ledger): Json {
  const out: Record<string, Json> = {};
  for (const [key, value] of Object.entries(ledger)) if (!DERIVED.has(key)) out[key] = encode(value);
  return out;
}

export function restoreLedger(saved: Json, nodeCount: number): Ledger {
  const ledger = new Ledger(nodeCount);
  const fields = decode(saved) as Record<string, unknown>;
  for (const [key, value] of Object.entries(fields)) {
    if (!(key in ledger)) throw new Error(`ledger snapshot: unknown field ${key}`);
    Object.assign(ledger, { [key]: value });
  }
  ledger.rebuildIndexes();
  return ledger;
}
