/**
 * EthereumTransaction: the signed Ethereum transaction it wraps (`ethereum_transaction`), and the signer's
 * `ethereum_nonce`, which the record reports after execution (else the transaction's nonce + 1 on success).
 */

import { FormatError } from '../decode/byte-reader.ts';
import { decodeEthereumTransaction, type EthereumTransaction, toBigInt } from '../decode/ethereum-transaction.ts';
import { toHex } from '../decode/hash.ts';
import type { PbEntityId } from '../decode/types.ts';
import { accountId, entityRow, fileId, type ItemContext, serviceBody } from './context.ts';

const hex = (bytes: Uint8Array) => `0x${toHex(bytes)}`;
const orNull = (bytes: Uint8Array | undefined) => (bytes && bytes.length > 0 ? bytes : null);

export function ethereumTransaction(ctx: ItemContext): void {
  const { item } = ctx;
  const body = serviceBody<{ ethereum_data?: Uint8Array; call_data?: PbEntityId; max_gas_allowance?: bigint }>(ctx);
  const data = body.ethereum_data;
  if (!data || data.length === 0) return;
  let tx: EthereumTransaction;
  try {
    tx = decodeEthereumTransaction(data);
  } catch (error) {
    // Consensus accepted the item, so its file is valid: data that is not a signed Ethereum transaction gets
    // no ethereum_transaction row (as in the reference importer), its other rows are written as usual.
    if (error instanceof FormatError) return;
    throw error;
  }
  const callDataId = fileId(body.call_data);
  ctx.rows.insert('ethereum_transaction', {
    access_list: orNull(tx.accessList && tx.accessList.length > 1 ? tx.accessList : undefined),
    authorization_list: tx.authorizationList
      ? tx.authorizationList.map((entry) => {
          const [chainId, address, nonce, yParity, r, s] = entry as Uint8Array[];
          return {
            chain_id: hex(chainId ?? new Uint8Array()),
            address: hex(address ?? new Uint8Array()),
            nonce: toBigInt(nonce ?? new Uint8Array()),
            y_parity: Number(toBigInt(yParity ?? new Uint8Array())),
            r: hex(r ?? new Uint8Array()),
            s: hex(s ?? new Uint8Array()),
          };
        })
      : null,
    call_data: callDataId === 0n ? tx.callData : null,
    call_data_id: callDataId === 0n ? null : callDataId,
    chain_id: orNull(tx.chainId),
    consensus_timestamp: item.consensusTimestamp,
    data,
    gas_limit: tx.gasLimit,
    gas_price: orNull(tx.gasPrice),
    hash: item.record.ethereum_hash ?? new Uint8Array(),
    max_fee_per_gas: orNull(tx.maxFeePerGas),
    max_gas_allowance: body.max_gas_allowance ?? 0n,
    max_priority_fee_per_gas: orNull(tx.maxPriorityFeePerGas),
    nonce: tx.nonce,
    payer_account_id: item.payerAccountId,
    recovery_id: tx.recoveryId,
    signature_r: tx.r,
    signature_s: tx.s,
    signature_v: orNull(tx.v),
    to_address: orNull(tx.to),
    type: tx.type,
    value: orNull(tx.value),
  });
  const result = item.record.contractCallResult ?? item.record.contractCreateResult;
  const signer = accountId(result?.sender_id);
  if (signer === 0n) return;
  const nonce = result?.signer_nonce?.value ?? (item.successful ? tx.nonce + 1n : undefined);
  if (nonce !== undefined) {
    ctx.rows.change('entity', { ...entityRow(signer), ethereum_nonce: nonce }, item.consensusTimestamp, false);
  }
}
