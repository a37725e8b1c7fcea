/**
 * Entity ids in submitted transactions and queries: shard 0, realm 0 (anything else names no entity here), the
 * number from the id's field, or for an account an alias (an EVM address or a key) the ledger resolves.
 */
import type { Ledger } from '../ledger/ledger.ts';

type Pb = Record<string, unknown>;

/** The number of a decoded AccountID/TokenID/…; -1n for an id of another shard or realm, 0n when absent. */
export function numOf(id: unknown, field: string): bigint {
  if (!id || typeof id !== 'object') return 0n;
  const pb = id as Pb;
  const shard = BigInt(String(pb.shardNum ?? 0));
  const realm = BigInt(String(pb.realmNum ?? 0));
  if (shard !== 0n || realm !== 0n) return -1n;
  return BigInt(String(pb[field] ?? 0));
}

/** An AccountID's alias (an EVM address or a serialized Key), when it names the account by one. */
export function aliasOf(id: unknown): Uint8Array | undefined {
  const alias = ((id ?? {}) as Pb).alias;
  return alias instanceof Uint8Array && alias.length > 0 ? alias : undefined;
}

/** An AccountID's number: by `accountNum`, or by its alias (an EVM address or a key) when the ledger knows it. */
export function accountNumOf(ledger: Ledger, id: unknown): bigint {
  const alias = aliasOf(id);
  if (alias) return (alias.length === 20 ? ledger.entityOfAddress(alias) : ledger.entityOfKeyAlias(alias)) ?? -1n;
  return numOf(id, 'accountNum');
}

export function contractNumOf(ledger: Ledger, id: unknown): bigint {
  const pb = (id ?? {}) as Pb;
  const evm = pb.evm_address instanceof Uint8Array && pb.evm_address.length > 0 ? pb.evm_address : undefined;
  if (evm) return evm.length === 20 ? (ledger.entityOfAddress(evm) ?? -1n) : -1n;
  return numOf(id, 'contractNum');
}

/** A decoded Timestamp as nanoseconds. */
export function nsOf(timestamp: unknown): bigint {
  const pb = (timestamp ?? {}) as Pb;
  return BigInt(String(pb.seconds ?? 0)) * 1_000_000_000n + BigInt(Number(pb.nanos ?? 0));
}

/** The key a transaction id is known by: payer, valid start, scheduled flag and nonce. */
export function transactionIdKey(id: unknown): string {
  const pb = (id ?? {}) as Pb;
  const payer = (pb.accountID ?? {}) as Pb;
  const payerText = `${payer.shardNum ?? 0}.${payer.realmNum ?? 0}.${payer.accountNum ?? 0}`;
  return `${payerText}@${nsOf(pb.transactionValidStart)}${pb.scheduled ? '?scheduled' : ''}/${pb.nonce ?? 0}`;
}
