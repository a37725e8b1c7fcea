import { responseCodeName } from '../../../db/codes/response-codes.ts';
import { transactionTypeName } from '../../../db/codes/transaction-types.ts';
import type { TransactionRow } from '../../../db/queries/transactions.ts';
import { maxCustomFees } from '../../format/custom-fee-limits.ts';
import { keyObject } from '../../format/key.ts';
import { base64, entityId, int64, timestampString, transactionIdString } from '../../format/values.ts';

/** One transaction as the API's Transaction object (the reference's field set, formats and key order). */
export function formatTransaction(row: TransactionRow) {
  return {
    assessed_custom_fees: row.assessed_custom_fees?.map((fee) => ({
      amount: fee.amount,
      collector_account_id: entityId(fee.collector_account_id),
      token_id: entityId(fee.token_id),
      effective_payer_account_ids: (fee.effective_payer_account_ids ?? []).map(entityId),
    })),
    batch_key: keyObject(row.batch_key),
    bytes: base64(row.transaction_bytes),
    charged_tx_fee: int64(row.charged_tx_fee),
    consensus_timestamp: timestampString(row.consensus_timestamp),
    entity_id: entityId(row.entity_id),
    high_volume: row.high_volume ?? false,
    high_volume_pricing_multiplier: int64(row.high_volume_pricing_multiplier),
    max_fee: row.max_fee,
    max_custom_fees: maxCustomFees(row.max_custom_fees),
    memo_base64: base64(row.memo),
    name: transactionTypeName(row.type),
    nft_transfers: (row.nft_transfer ?? []).map((transfer) => ({
      is_approval: transfer.is_approval ?? false,
      receiver_account_id: entityId(transfer.receiver_account_id),
      sender_account_id: entityId(transfer.sender_account_id),
      serial_number: transfer.serial_number,
      token_id: entityId(transfer.token_id),
    })),
    node: entityId(row.node_account_id),
    nonce: row.nonce,
    parent_consensus_timestamp: timestampString(row.parent_consensus_timestamp),
    result: responseCodeName(row.result),
    scheduled: row.scheduled,
    staking_reward_transfers: (row.staking_reward_transfers ?? []).map((transfer) => ({
      account: entityId(transfer.account),
      amount: transfer.amount,
    })),
    token_transfers: (row.token_transfer_list ?? []).map(([tokenId, accountId, amount, isApproval]) => ({
      token_id: entityId(tokenId),
      account: entityId(accountId),
      amount,
      is_approval: isApproval ?? false,
    })),
    transaction_hash: base64(row.transaction_hash),
    transaction_id: transactionIdString(row.payer_account_id, row.valid_start_ns),
    transfers: (row.crypto_transfer_list ?? []).map(([amount, account, isApproval]) => ({
      account: entityId(account),
      amount,
      is_approval: isApproval ?? false,
    })),
    valid_duration_seconds: row.valid_duration_seconds,
    valid_start_timestamp: timestampString(row.valid_start_ns),
  };
}
