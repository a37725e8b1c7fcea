import { transactionTypeName } from '../../../db/codes/transaction-types.ts';
import type { TokenInfoRow, TokenListRow } from '../../../db/queries/tokens.ts';
import type { TokenBalanceRow } from '../../../db/queries/tokens-balances.ts';
import type { NftRow, NftTransactionRow } from '../../../db/queries/tokens-nfts.ts';
import { keyObject } from '../../format/key.ts';
import { base64, entityId, int64, timestampString, transactionIdString } from '../../format/values.ts';
import { tokenCustomFees } from './custom-fees.ts';

const NANOS_PER_SECOND = 1_000_000_000n;

/** Token metadata: base64, or `""` when the token has none (tokens older than the column have null). */
const metadata = (bytes: Uint8Array | null): string => base64(bytes) ?? '';

/** A token in `GET /api/v1/tokens`, keys in the reference's order (`decimals` last). */
export function formatTokenSummary(row: TokenListRow) {
  return {
    admin_key: keyObject(row.key),
    metadata: metadata(row.metadata),
    name: row.name,
    symbol: row.symbol,
    token_id: entityId(row.token_id),
    type: row.type,
    decimals: int64(row.decimals),
  };
}

/** The expiry: the stored expiration, else creation plus the auto-renew period. */
function expiry(row: TokenInfoRow): bigint | null {
  if (row.expiration_timestamp !== null) return BigInt(row.expiration_timestamp);
  if (row.auto_renew_period === null) return null;
  return BigInt(row.created_timestamp) + BigInt(row.auto_renew_period) * NANOS_PER_SECOND;
}

/** `GET /api/v1/tokens/{tokenId}`: supplies and decimals as strings, as the reference writes them. */
export function formatTokenInfo(row: TokenInfoRow) {
  return {
    admin_key: keyObject(row.key),
    auto_renew_account: entityId(row.auto_renew_account_id),
    auto_renew_period: int64(row.auto_renew_period),
    created_timestamp: timestampString(row.created_timestamp),
    custom_fees: tokenCustomFees(row),
    decimals: row.decimals,
    deleted: row.deleted,
    expiry_timestamp: expiry(row),
    fee_schedule_key: keyObject(row.fee_schedule_key),
    freeze_default: row.freeze_default,
    freeze_key: keyObject(row.freeze_key),
    initial_supply: row.initial_supply,
    kyc_key: keyObject(row.kyc_key),
    max_supply: row.max_supply,
    memo: row.memo,
    metadata: metadata(row.metadata),
    metadata_key: keyObject(row.metadata_key),
    modified_timestamp: timestampString(row.modified_timestamp),
    name: row.name,
    pause_key: keyObject(row.pause_key),
    pause_status: row.pause_status,
    supply_key: keyObject(row.supply_key),
    supply_type: row.supply_type,
    symbol: row.symbol,
    token_id: entityId(row.token_id),
    total_supply: row.total_supply,
    treasury_account_id: entityId(row.treasury_account_id),
    type: row.type,
    wipe_key: keyObject(row.wipe_key),
  };
}

export function formatTokenBalance(row: TokenBalanceRow) {
  return { account: entityId(row.account_id), balance: BigInt(row.balance), decimals: int64(row.decimals) };
}

export function formatNft(row: NftRow) {
  return {
    account_id: entityId(row.account_id),
    created_timestamp: timestampString(row.created_timestamp),
    delegating_spender: entityId(row.delegating_spender),
    deleted: row.deleted,
    metadata: base64(row.metadata),
    modified_timestamp: timestampString(row.modified_timestamp),
    serial_number: BigInt(row.serial_number),
    spender: entityId(row.spender),
    token_id: entityId(row.token_id),
  };
}

/**
 * One transaction in an NFT's history. An NFT moved through several parties in one transaction may have several
 * transfers (older records did not flatten them): the first one is shown, as the reference does.
 */
export function formatNftTransaction(row: NftTransactionRow) {
  const transfer = row.nft_transfer?.[0];
  return {
    consensus_timestamp: timestampString(row.consensus_timestamp),
    nonce: row.nonce,
    transaction_id: transactionIdString(row.payer_account_id, row.valid_start_ns),
    type: transactionTypeName(row.type),
    is_approval: transfer ? transfer.is_approval : false,
    receiver_account_id: entityId(transfer?.receiver_account_id),
    sender_account_id: entityId(transfer?.sender_account_id),
  };
}
