/**
 * EthereumTransaction: the signed Ethereum transaction it wraps (`ethereum_transaction`, and a `transaction_hash`
 * row for its Ethereum hash), and the signer's `ethereum_nonce`. Columns hold what the reference importer's parsers store: byte fields as the RLP item's
 * payload (empty bytes for an empty item, never NULL), fields a type does not have as NULL, and the value as
 * Java's `BigInteger.toByteArray()` of the unsigned amount (`0x00` for zero, a leading `0x00` before a high bit),
 * which its REST reads as a two's complement number.
 */

import { keccak_256 } from '@noble/hashes/sha3.js';
import { FormatError } from '../decode/byte-reader.ts';
import { decodeEthereumTransaction, type EthereumTransaction, toBigInt } from '../decode/ethereum-transaction.ts';
import { toHex } from '../decode/hash.ts';
import type { RecordItem } from '../decode/record-item.ts';
import type { PbEntityId } from '../decode/types.ts';
import { type CallDataFromFile, LAST_SYSTEM_FILE_NUM } from './call-data-file.ts';
import { accountId, entityRow, fileId, type ItemContext, idParts, nullable, serviceBody } from './context.ts';

/** Records of HAPI 0.47 and later carry the signer's nonce; before, the importer derived it. */
const SIGNER_NONCE_MINOR = 47;
const CONTRACT_REVERT_EXECUTED = 33;
const MAX_CHILD_RECORDS_EXCEEDED = 328;

/** Java's `BigInteger.toByteArray()` of a non-negative integer: minimal two's complement, so zero is one 0x00. */
export function javaBigIntegerBytes(value: bigint): Uint8Array {
  const digits = value.toString(16);
  const even = digits.length % 2 === 1 ? `0${digits}` : digits;
  const bytes = Buffer.from(even, 'hex');
  return (bytes[0] ?? 0) & 0x80 ? Uint8Array.from([0, ...bytes]) : new Uint8Array(bytes);
}

export interface EthereumBody {
  ethereum_data?: Uint8Array;
  call_data?: PbEntityId;
  max_gas_allowance?: bigint;
}

/** Decoded once per item: the ethereum_transaction row and the contract_result both read it. */
const decoded = new WeakMap<RecordItem, EthereumTransaction | null>();

/** The signed transaction of an EthereumTransaction item; undefined when its data is not one (no row then). */
export function decodedEthereumTransaction(ctx: Pick<ItemContext, 'item'>): EthereumTransaction | undefined {
  let tx = decoded.get(ctx.item);
  if (tx === undefined) {
    tx = decodeData(serviceBody<EthereumBody | undefined>(ctx)?.ethereum_data);
    decoded.set(ctx.item, tx);
  }
  return tx ?? undefined;
}

function decodeData(data: Uint8Array | undefined): EthereumTransaction | null {
  if (!data || data.length === 0) return null;
  try {
    return decodeEthereumTransaction(data);
  } catch (error) {
    // Consensus accepted the item, so its file is valid: data that is not a signed Ethereum transaction gets
    // no ethereum_transaction row (as in the reference importer), its other rows are written as usual.
    if (error instanceof FormatError) return null;
    throw error;
  }
}

/**
 * The hash the row and the contract result carry: the record's, else (records before it had one) the Keccak-256
 * of the signed bytes when those hold the call data (or name no file). With the call data in a file it is empty
 * here: the writer fills it in once the file's contents of this record file are written (callDataFromFile).
 */
export function ethereumHash(ctx: Pick<ItemContext, 'item'>, tx: EthereumTransaction): Uint8Array {
  const recorded = ctx.item.record.ethereum_hash;
  if (recorded && recorded.length > 0) return recorded;
  const body = serviceBody<EthereumBody>(ctx);
  if (tx.callData.length > 0 || fileId(body.call_data) === 0n)
    return keccak_256(body.ethereum_data ?? new Uint8Array());
  return new Uint8Array();
}

const ETHEREUM_TRANSACTION = 50;

/**
 * The 32-byte hash contract results and logs carry (RecordItem.getTransactionHash): an Ethereum transaction's
 * hash when its data decodes, else the first 32 bytes of the transaction hash.
 */
export function itemTransactionHash(item: RecordItem): Uint8Array {
  const tx = item.type === ETHEREUM_TRANSACTION ? decodedEthereumTransaction({ item }) : undefined;
  return tx ? ethereumHash({ item }, tx) : (item.record.transactionHash ?? new Uint8Array()).subarray(0, 32);
}

/**
 * The transaction whose hash the writer computes from its call data file, when ethereumHash left it empty; none
 * for a system file, whose contents the importer never reads (its hash stays empty).
 */
function callDataFromFile(ctx: ItemContext, hash: Uint8Array, data: Uint8Array): CallDataFromFile | undefined {
  const file = fileId(serviceBody<EthereumBody>(ctx).call_data);
  if (hash.length > 0 || idParts(file).num <= LAST_SYSTEM_FILE_NUM) return undefined;
  const { item } = ctx;
  // A copy: a view would take the whole record file across the thread with it.
  return {
    consensusTimestamp: item.consensusTimestamp,
    payerAccountId: item.payerAccountId,
    fileId: file,
    data: data.slice(),
  };
}

/** The legacy chain id folded into v (EIP-155), as the importer stores it; none before EIP-155. */
function legacyChainId(v: Uint8Array | undefined): Uint8Array | null {
  const value = toBigInt(v ?? new Uint8Array());
  return value > 34n ? javaBigIntegerBytes((value - 35n) >> 1n) : null;
}

export function ethereumTransaction(ctx: ItemContext): void {
  const { item } = ctx;
  const body = serviceBody<EthereumBody>(ctx);
  const tx = decodedEthereumTransaction(ctx);
  const data = body.ethereum_data;
  if (!tx || !data) return;
  const legacy = tx.type === 0;
  const callDataId = fileId(body.call_data);
  const hash = ethereumHash(ctx, tx);
  ctx.rows.insert('ethereum_transaction', {
    // The list's payload, without its RLP prefix (empty for an empty list).
    access_list: tx.accessList ? accessListPayload(tx.accessList) : null,
    // Hex digits without `0x`, as the importer's Eip7702 parser stores them.
    authorization_list: tx.authorizationList
      ? tx.authorizationList.map((entry) => {
          const [chainId, address, nonce, yParity, r, s] = entry as Uint8Array[];
          return {
            chain_id: toHex(chainId ?? new Uint8Array()),
            address: toHex(address ?? new Uint8Array()),
            nonce: toBigInt(nonce ?? new Uint8Array()),
            y_parity: Number(toBigInt(yParity ?? new Uint8Array())),
            r: toHex(r ?? new Uint8Array()),
            s: toHex(s ?? new Uint8Array()),
          };
        })
      : null,
    call_data: tx.callData,
    call_data_id: body.call_data ? nullable(callDataId) : null,
    chain_id: legacy ? legacyChainId(tx.v) : (tx.chainId ?? null),
    consensus_timestamp: item.consensusTimestamp,
    data,
    gas_limit: tx.gasLimit,
    gas_price: tx.gasPrice ?? null,
    hash,
    max_fee_per_gas: tx.maxFeePerGas ?? null,
    max_gas_allowance: body.max_gas_allowance ?? 0n,
    max_priority_fee_per_gas: tx.maxPriorityFeePerGas ?? null,
    nonce: tx.nonce,
    payer_account_id: item.payerAccountId,
    recovery_id: legacy ? (toBigInt(tx.v ?? new Uint8Array()) & 1n ? 0 : 1) : tx.recoveryId,
    signature_r: tx.r,
    signature_s: tx.s,
    signature_v: legacy ? (tx.v ?? null) : null,
    to_address: tx.to,
    type: tx.type,
    value: javaBigIntegerBytes(toBigInt(tx.value)),
  });
  // The importer's SqlEntityListener finds the transaction by its Ethereum hash too, once it has one.
  if (hash.length > 0) {
    ctx.rows.insert('transaction_hash', {
      consensus_timestamp: item.consensusTimestamp,
      hash,
      hash_suffix: null,
      payer_account_id: item.payerAccountId,
    });
  }
  const pending = callDataFromFile(ctx, hash, data);
  if (pending) ctx.rows.callDataFromFiles.push(pending);
  signerNonce(ctx, tx);
}

/** The signer's `ethereum_nonce`, updated in place (no history row). */
function signerNonce(ctx: ItemContext, tx: EthereumTransaction): void {
  const { item } = ctx;
  const result = item.record.contractCallResult ?? item.record.contractCreateResult;
  const signer = accountId(result?.sender_id);
  if (!result || signer === 0n) return;
  let nonce = result.signer_nonce?.value;
  if (nonce === undefined && ctx.hapiMinor < SIGNER_NONCE_MINOR) {
    const counts =
      item.successful || item.status === CONTRACT_REVERT_EXECUTED || item.status === MAX_CHILD_RECORDS_EXCEEDED;
    if (!counts) return;
    nonce = tx.nonce + 1n;
  }
  if (nonce !== undefined) {
    ctx.rows.change('entity', { ...entityRow(signer), ethereum_nonce: nonce }, item.consensusTimestamp, false);
  }
}

/** An RLP list's payload: its encoding without the length prefix. */
function accessListPayload(encoded: Uint8Array): Uint8Array {
  const prefix = encoded[0] ?? 0xc0;
  return encoded.subarray(prefix > 0xf7 ? 1 + prefix - 0xf7 : 1);
}
