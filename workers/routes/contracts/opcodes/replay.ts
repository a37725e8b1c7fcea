/**
 * What the opcode tracer replays: the contract transaction a transaction id or Ethereum hash names, rebuilt as the
 * reference rebuilds it (sender, receiver, gas, value, call data) on the state just before it, at its own block.
 */

import { bytesFromHex, hexOfBytes } from '../../../../db/bytea.ts';
import type { Database } from '../../../../db/client.ts';
import { evmBlock } from '../../../../db/queries/evm-blocks.ts';
import { currentEvmEntity, type EvmEntityRow } from '../../../../db/queries/evm-entities.ts';
import {
  type OpcodeSourceRow,
  opcodeSource,
  transactionTimestampByHash,
  transactionTimestampById,
} from '../../../../db/queries/evm-opcodes.ts';
import { ADDRESS_BYTES, entityIdOfLongZero, longZeroAddress } from '../../../evm/addresses.ts';
import type { BlockContext, CallTransaction, EvmSettings } from '../../../evm/types.ts';
import { entityId } from '../../../format/values.ts';
import { type ErrorReply, notFound } from '../call/call-errors.ts';
import { appliedDelegations, type StoredAuthorization } from './authorizations.ts';
import type { TransactionRef } from './params.ts';

const CONTRACT_CREATE = 8;
/** An Ethereum transaction's value is in weibars; the EVM counts tinybars. */
const WEIBARS_PER_TINYBAR = 10_000_000_000n;
const ZERO_ADDRESS = new Uint8Array(ADDRESS_BYTES);

export interface Replay {
  /** The ledger's contract transaction, at its consensus timestamp. */
  readonly timestamp: bigint;
  readonly block: BlockContext;
  readonly transaction: CallTransaction;
  /** The recipient entity's canonical address, or the zero address when there is none. */
  readonly address: Uint8Array;
  /** The recipient entity's id (`0.0.1234`), or null. */
  readonly contractId: string | null;
}

export type ReplayLookup =
  | { readonly ok: true; readonly replay: Replay }
  | { readonly ok: false; readonly error: ErrorReply };

const canonical = (row: EvmEntityRow): Uint8Array => {
  if (row.evm_address?.length === ADDRESS_BYTES) return row.evm_address;
  if (row.alias?.length === ADDRESS_BYTES) return row.alias;
  return longZeroAddress(BigInt(row.id));
};

const bigOf = (bytes: Uint8Array | null): bigint =>
  bytes === null || bytes.length === 0 ? 0n : BigInt(`0x${hexOfBytes(bytes)}`);

/**
 * A HAPI create runs its init code followed by its constructor parameters. `contract.initcode` holds the body's init
 * code, or the sidecar's, which is already followed by them.
 */
function initcodeWithParameters(code: Uint8Array, parameters: Uint8Array): Uint8Array {
  const tail = code.subarray(code.length - parameters.length);
  if (parameters.length > 0 && code.length >= parameters.length && tail.every((byte, i) => byte === parameters[i])) {
    return code;
  }
  const out = new Uint8Array(code.length + parameters.length);
  out.set(code);
  out.set(parameters, code.length);
  return out;
}

/** Call data and bytecode files hold hex text; raw bytes are taken as they are. */
function fileCallData(content: Uint8Array): Uint8Array {
  const text = new TextDecoder().decode(content).trim().replace(/^0x/, '');
  return /^(?:[0-9a-fA-F]{2})*$/.test(text) ? bytesFromHex(text) : content;
}

async function timestampOf(db: Database, ref: TransactionRef): Promise<bigint | ErrorReply> {
  if (ref.kind === 'hash') {
    const found = await transactionTimestampByHash(db, ref.hash);
    return found ?? notFound(`Contract transaction hash not found: ${ref.text}`);
  }
  const found = await transactionTimestampById(db, ref.payer, ref.validStartNs);
  return found ?? notFound(`Transaction not found: ${ref.text}`);
}

async function blockOf(db: Database, row: OpcodeSourceRow, timestamp: bigint): Promise<BlockContext | undefined> {
  const file =
    row.block_index === null
      ? await evmBlock(db, { latest: true })
      : {
          index: row.block_index,
          consensus_start: row.block_start ?? '0',
          consensus_end: row.block_end ?? '0',
          hash: row.block_hash ?? '',
        };
  if (!file) return undefined;
  // NUMBER, TIMESTAMP and BLOCKHASH are the containing block's; the state is the one just before the transaction.
  return {
    number: BigInt(file.index),
    consensusStart: BigInt(file.consensus_start),
    consensusEnd: timestamp - 1n,
    hash: file.hash,
    historical: true,
  };
}

/** The Ethereum `to` as the reference maps it: a long-zero address becomes its entity's canonical address. */
async function ethereumReceiver(db: Database, to: Uint8Array, settings: EvmSettings): Promise<Uint8Array | undefined> {
  if (to.length === 0) return undefined;
  const id = entityIdOfLongZero(to, settings.shard, settings.realm);
  if (id === undefined) return to;
  const entity = await currentEvmEntity(db, id);
  return entity ? canonical(entity) : to;
}

export async function lookUpReplay(db: Database, ref: TransactionRef, settings: EvmSettings): Promise<ReplayLookup> {
  const timestamp = await timestampOf(db, ref);
  if (typeof timestamp !== 'bigint') return { ok: false, error: timestamp };
  const row = await opcodeSource(db, timestamp);
  if (!row) return { ok: false, error: notFound(`Contract result not found: ${timestamp}`) };
  const [block, recipient, sender] = await Promise.all([
    blockOf(db, row, timestamp),
    row.contract_id && row.contract_id !== '0' ? currentEvmEntity(db, BigInt(row.contract_id)) : undefined,
    row.sender_id ? currentEvmEntity(db, BigInt(row.sender_id)) : undefined,
  ]);
  if (!block) return { ok: false, error: notFound(`Contract result not found: ${timestamp}`) };
  const ethereum = row.eth_type !== null;
  const to = ethereum
    ? await ethereumReceiver(db, row.eth_to ?? new Uint8Array(), settings)
    : row.transaction_type === CONTRACT_CREATE
      ? undefined
      : ((recipient && canonical(recipient)) ?? longZeroAddress(BigInt(row.contract_id ?? '0')));
  const data = ethereum
    ? (row.eth_call_data ?? (row.eth_call_data_file && fileCallData(row.eth_call_data_file)) ?? new Uint8Array())
    : to === undefined
      ? initcodeWithParameters(
          row.create_initcode ??
            (row.create_initcode_file && fileCallData(row.create_initcode_file)) ??
            new Uint8Array(),
          row.function_parameters ?? new Uint8Array(),
        )
      : (row.function_parameters ?? new Uint8Array());
  const transaction: CallTransaction = {
    from: sender ? canonical(sender) : row.sender_id ? longZeroAddress(BigInt(row.sender_id)) : undefined,
    to,
    data,
    value: ethereum ? bigOf(row.eth_value) / WEIBARS_PER_TINYBAR : BigInt(row.amount ?? '0'),
    gas: BigInt(row.eth_gas_limit ?? row.gas_limit),
    gasPrice: 0n,
    ...(to === undefined && recipient ? { createAddress: canonical(recipient) } : {}),
    ...(row.eth_authorization_list
      ? {
          authorizationCount: row.eth_authorization_list.length,
          delegations: await appliedDelegations(
            db,
            row.eth_authorization_list as StoredAuthorization[],
            settings.chainId,
            timestamp,
          ),
        }
      : {}),
  };
  return {
    ok: true,
    replay: {
      timestamp,
      block,
      transaction,
      address: recipient ? canonical(recipient) : ZERO_ADDRESS,
      contractId: recipient ? entityId(recipient.id) : null,
    },
  };
}
