/**
 * The EVM address lookups of synthetic transfer logs (the importer's SyntheticLogListener, on as its
 * `syntheticContractLogEvmAddressLookup` default): once the file's entities are written, a sender or receiver with
 * an EVM address appears in topic1 / topic2 by that address (leading zero bytes trimmed) instead of its long-zero
 * address, and a log of contract origin, which carries the one-byte marker bloom, gets the bloom of its contract's
 * address and its topics.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import type pg from 'pg';
import { int8ArrayText } from '../../db/queries/int8.ts';
import { fromBigInt } from '../decode/ethereum-transaction.ts';
import { longZeroAddress } from '../decode/ids.ts';
import { idParts } from '../derive/context.ts';
import { type SyntheticTransfer, TRANSFER_TOPIC } from '../derive/synthetic-logs.ts';
import { byteaText, textArray } from './sql-text.ts';

const BLOOM_BYTES = 256;
const TOPIC_BYTES = 32;

function trimmed(bytes: Uint8Array): Uint8Array {
  const first = bytes.findIndex((byte) => byte !== 0);
  return first < 0 ? new Uint8Array() : bytes.subarray(first);
}

/** The importer's LogsBloomFilter insert: three bits from the Keccak-256 of the input, an empty input skipped. */
function insert(bloom: Uint8Array, input: Uint8Array): void {
  if (input.length === 0) return;
  const hash = keccak_256(input);
  for (let i = 0; i < 3; i++) {
    const bit = (((hash[2 * i] ?? 0) << 8) | (hash[2 * i + 1] ?? 0)) & 0x7ff;
    const at = BLOOM_BYTES - 1 - (bit >> 3);
    bloom[at] = (bloom[at] ?? 0) | (1 << (bit & 7));
  }
}

/** A topic as the bloom takes it: left-padded to 32 bytes (an empty topic becomes 32 zero bytes). */
function padded(topic: Uint8Array): Uint8Array {
  if (topic.length >= TOPIC_BYTES) return topic;
  const out = new Uint8Array(TOPIC_BYTES);
  out.set(topic, TOPIC_BYTES - topic.length);
  return out;
}

function transferBloom(address: Uint8Array, topic1: Uint8Array, topic2: Uint8Array): Uint8Array {
  const bloom = new Uint8Array(BLOOM_BYTES);
  insert(bloom, address);
  for (const topic of [TRANSFER_TOPIC, topic1, topic2]) insert(bloom, padded(topic));
  return bloom;
}

const UPDATE = `
  update contract_log c set topic1 = u.topic1, topic2 = u.topic2, bloom = coalesce(u.bloom, c.bloom)
    from unnest($1::bigint[], $2::int[], $3::text[]::bytea[], $4::text[]::bytea[], $5::text[]::bytea[])
      as u(consensus_timestamp, index, topic1, topic2, bloom)
   where c.consensus_timestamp = u.consensus_timestamp and c.index = u.index`;

/** Runs after the file's entity changes and its contract_log rows are written, in the file's transaction. */
export async function resolveSyntheticLogAddresses(
  client: pg.ClientBase,
  transfers: readonly SyntheticTransfer[],
): Promise<void> {
  if (transfers.length === 0) return;
  const ids = new Set<bigint>();
  for (const t of transfers) {
    for (const id of [t.sender, t.receiver, t.marker ? t.contractId : 0n]) if (id !== 0n) ids.add(id);
  }
  const { rows } = await client.query<{ id: string; evm_address: Uint8Array }>(
    'select id::text, evm_address from entity where id = any($1::bigint[]) and length(evm_address) > 0',
    [int8ArrayText([...ids])],
  );
  const addresses = new Map(rows.map((row) => [BigInt(row.id), trimmed(new Uint8Array(row.evm_address))]));
  const topic = (id: bigint) => (id === 0n ? new Uint8Array() : (addresses.get(id) ?? fromBigInt(idParts(id).num)));
  const changed = transfers.filter((t) => t.marker || addresses.has(t.sender) || addresses.has(t.receiver));
  if (changed.length === 0) return;
  const columns = changed.map((t) => {
    const topic1 = topic(t.sender);
    const topic2 = topic(t.receiver);
    const contract =
      t.contractId === 0n ? new Uint8Array(20) : (addresses.get(t.contractId) ?? longZeroAddress(t.contractId));
    return { t, topic1, topic2, bloom: t.marker ? transferBloom(contract, topic1, topic2) : null };
  });
  await client.query(UPDATE, [
    int8ArrayText(columns.map((c) => c.t.consensusTimestamp)),
    `{${columns.map((c) => c.t.index).join(',')}}`,
    textArray(columns.map((c) => byteaText(c.topic1))),
    textArray(columns.map((c) => byteaText(c.topic2))),
    textArray(columns.map((c) => (c.bloom ? byteaText(c.bloom) : null))),
  ]);
}
