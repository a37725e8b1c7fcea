/**
 * The rows every transaction writes, whatever its type and outcome: `transaction`, `transaction_hash`,
 * `crypto_transfer` (balances follow), `staking_reward_transfer`; and on success or FAIL_INVALID the token
 * transfers, NFT transfers (into `transaction.nft_transfer` and `nft` ownership), automatic associations and
 * assessed custom fees.
 */
import type { PbAccountAmount, PbEntityId, PbTokenTransferList } from '../decode/types.ts';
import { accountId, entityRow, type ItemContext, nanos, nullable, tokenId } from './context.ts';

const FAIL_INVALID = 9;
const CONSENSUS_SUBMIT_MESSAGE = 27;
const TOKEN_DISSOCIATE = 41;
/** Before 2020 failed CryptoTransfers listed spurious non-fee transfers; they are kept but marked. */
const ERRATA_CUTOFF = 1577836799000000000n;
const WILDCARD_SERIAL = -1n;

export function transactionRow(ctx: Omit<ItemContext, 'transaction'>, entityId: bigint): Record<string, unknown> {
  const { item } = ctx;
  const { body, record } = item;
  const id = body.transactionID ?? record.transactionID;
  return {
    consensus_timestamp: item.consensusTimestamp,
    type: item.type,
    result: item.status,
    payer_account_id: item.payerAccountId,
    valid_start_ns: nanos(id?.transactionValidStart),
    valid_duration_seconds: body.transactionValidDuration?.seconds ?? null,
    node_account_id: nullable(accountId(body.nodeAccountID)),
    entity_id: nullable(entityId),
    initial_balance: 0n,
    max_fee: body.transactionFee ?? 0n,
    charged_tx_fee: record.transactionFee ?? 0n,
    memo: body.memo ?? new Uint8Array(),
    transaction_hash: record.transactionHash ?? new Uint8Array(),
    scheduled: record.scheduleRef !== undefined,
    nonce: id?.nonce ?? 0,
    parent_consensus_timestamp: item.parentConsensusTimestamp ?? null,
    index: item.index,
    nft_transfer: null,
    itemized_transfer: null,
    max_custom_fees: body.max_custom_fees.length > 0 ? body.max_custom_fees : null,
    batch_key: body.batch_key ?? null,
    inner_transactions: null,
    high_volume: body.high_volume ?? false,
    // Read from the record as protobuf gives it (0 when unset); the congestion multiplier only from block streams.
    high_volume_pricing_multiplier: record.high_volume_pricing_multiplier ?? 0n,
    congestion_pricing_multiplier: item.congestionPricingMultiplier ?? null,
  };
}

const NO_ALIAS = new Uint8Array();

function sameAccount(a: PbEntityId | undefined, b: PbEntityId | undefined): boolean {
  return accountId(a) === accountId(b) && Buffer.compare(a?.alias ?? NO_ALIAS, b?.alias ?? NO_ALIAS) === 0;
}

interface CryptoTransferBody {
  transfers?: { accountAmounts: PbAccountAmount[] };
  tokenTransfers: PbTokenTransferList[];
}

/**
 * The hbar transfers a successful CryptoTransfer's body asked for, as the importer persists them for Rosetta
 * (`persist.itemizedTransfers`, on in the reference's Rosetta image): Rosetta tells them from the fees by them. An
 * account named only by its alias is left out, as the importer leaves out one it cannot look up.
 */
function itemizedTransfers(body: CryptoTransferBody): Record<string, unknown>[] {
  const itemized: Record<string, unknown>[] = [];
  for (const aa of body.transfers?.accountAmounts ?? []) {
    const account = accountId(aa.accountID);
    if ((aa.accountID?.accountNum ?? 0n) === 0n) continue;
    itemized.push({ amount: aa.amount ?? 0n, entity_id: account, is_approval: aa.is_approval ?? false });
  }
  return itemized;
}

export function deriveCommon(ctx: ItemContext): void {
  const { item, rows, transaction } = ctx;
  const { record } = item;
  const ts = item.consensusTimestamp;
  const payer = item.payerAccountId;
  const transferBody = item.body.cryptoTransfer as CryptoTransferBody | undefined;

  const hash = record.transactionHash;
  if (hash && hash.length > 0 && item.type !== CONSENSUS_SUBMIT_MESSAGE) {
    rows.insert('transaction_hash', {
      consensus_timestamp: ts,
      hash: hash.subarray(0, 32),
      hash_suffix: hash.length > 32 ? hash.subarray(32) : null,
      payer_account_id: payer,
    });
  }

  const failedTransfer = !item.successful && transferBody !== undefined && ts < ERRATA_CUTOFF;
  for (const aa of record.transferList?.accountAmounts ?? []) {
    const account = accountId(aa.accountID);
    const amount = aa.amount ?? 0n;
    let isApproval = false;
    let errata: string | null = null;
    if (amount < 0n || failedTransfer) {
      const inBody = transferBody?.transfers?.accountAmounts.find(
        (b) => (b.amount ?? 0n) === amount && sameAccount(b.accountID, aa.accountID),
      );
      if (inBody) {
        isApproval = inBody.is_approval ?? false;
        if (failedTransfer) errata = 'DELETE';
      }
    }
    rows.insert('crypto_transfer', {
      entity_id: account,
      consensus_timestamp: ts,
      amount,
      payer_account_id: payer,
      is_approval: isApproval,
      errata,
    });
    if (errata === null) rows.addEntityBalance(account, amount, ts);
  }

  // Approved debits spend the owner's allowance to the payer (the reference's trackAllowance).
  if (item.successful && transferBody) {
    const itemized = itemizedTransfers(transferBody);
    if (itemized.length > 0) transaction.itemized_transfer = itemized;
    for (const aa of transferBody.transfers?.accountAmounts ?? []) {
      if (aa.is_approval && (aa.amount ?? 0n) < 0n)
        rows.spendAllowance(accountId(aa.accountID), payer, undefined, aa.amount ?? 0n);
    }
    const result = record.contractCallResult;
    const spender = transferBody.tokenTransfers.length > 0 && result ? accountId(result.sender_id) : payer;
    for (const list of transferBody.tokenTransfers) {
      for (const aa of list.transfers) {
        if (aa.is_approval && (aa.amount ?? 0n) < 0n) {
          rows.spendAllowance(accountId(aa.accountID), spender, tokenId(list.token), aa.amount ?? 0n);
        }
      }
    }
  }

  for (const aa of record.paid_staking_rewards) {
    rows.insert('staking_reward_transfer', {
      account_id: accountId(aa.accountID),
      amount: aa.amount ?? 0n,
      consensus_timestamp: ts,
      payer_account_id: payer,
    });
  }

  if (!item.successful && item.status !== FAIL_INVALID) return;

  if (item.type !== 29) {
    for (const association of record.automatic_token_associations) {
      const account = accountId(association.account_id);
      const token = tokenId(association.token_id);
      rows.change(
        'token_account',
        {
          account_id: account,
          token_id: token,
          associated: true,
          automatic_association: true,
          balance: 0n,
          balance_timestamp: ts,
          created_timestamp: ts,
        },
        ts,
      );
    }
  }

  const nftTransfers: Record<string, unknown>[] = [];
  for (const list of record.tokenTransferLists) {
    const token = tokenId(list.token);
    // A dissociate's single transfer of a token is the balance of a deleted token leaving (the importer's rule).
    const deletedTokenDissociate = item.type === TOKEN_DISSOCIATE && list.transfers.length === 1;
    for (const aa of list.transfers) {
      const account = accountId(aa.accountID);
      const amount = aa.amount ?? 0n;
      rows.addTokenBalance(account, token, amount, ts);
      if (deletedTokenDissociate) {
        rows.dissociateTransfers.push({
          consensusTimestamp: ts,
          tokenId: token,
          accountId: account,
          amount,
          payerAccountId: payer,
        });
        continue;
      }
      rows.insert('token_transfer', {
        token_id: token,
        account_id: account,
        consensus_timestamp: ts,
        amount,
        payer_account_id: payer,
        is_approval: tokenApproval(transferBody, token, aa),
      });
    }
    for (const nft of list.nftTransfers) {
      const serial = nft.serialNumber ?? 0n;
      const receiver = accountId(nft.receiverAccountID);
      const sender = accountId(nft.senderAccountID);
      const bodyNft = transferBody?.tokenTransfers
        .find((l) => tokenId(l.token) === token)
        ?.nftTransfers.find(
          (n) =>
            (n.serialNumber ?? 0n) === serial &&
            accountId(n.receiverAccountID) === receiver &&
            accountId(n.senderAccountID) === sender,
        );
      nftTransfers.push({
        is_approval: bodyNft?.is_approval ?? false,
        receiver_account_id: nullable(receiver),
        sender_account_id: nullable(sender),
        serial_number: serial,
        token_id: token,
      });
      if (serial === WILDCARD_SERIAL && sender !== 0n && receiver !== 0n) {
        rows.nftTreasuryChanges.push({
          consensusTimestamp: ts,
          tokenId: token,
          previousTreasury: sender,
          newTreasury: receiver,
        });
      }
      if (serial !== WILDCARD_SERIAL) {
        // An NFT counts as one unit of its token in the owners' token_account balances.
        rows.addTokenBalance(receiver, token, 1n, ts);
        rows.addTokenBalance(sender, token, -1n, ts);
      }
      if (receiver !== 0n && serial !== WILDCARD_SERIAL) {
        // A new owner clears any approved spender.
        rows.change(
          'nft',
          { token_id: token, serial_number: serial, account_id: receiver, delegating_spender: null, spender: null },
          ts,
          true,
          ['delegating_spender', 'spender'],
        );
      }
    }
  }
  if (nftTransfers.length > 0) transaction.nft_transfer = nftTransfers;

  for (const fee of record.assessed_custom_fees) {
    rows.insert('assessed_custom_fee', {
      amount: fee.amount ?? 0n,
      collector_account_id: accountId(fee.fee_collector_account_id),
      consensus_timestamp: ts,
      token_id: nullable(tokenId(fee.token_id)),
      effective_payer_account_ids: fee.effective_payer_account_id.map((p) => accountId(p)),
      payer_account_id: payer,
    });
  }
}

/** A debit is an approved (allowance) transfer when the body lists it, or the same account, as approved. */
function tokenApproval(body: CryptoTransferBody | undefined, token: bigint, aa: PbAccountAmount): boolean {
  if ((aa.amount ?? 0n) >= 0n || !body) return false;
  const list = body.tokenTransfers.filter((l) => tokenId(l.token) === token).flatMap((l) => l.transfers);
  const exact = list.find((b) => (b.amount ?? 0n) === aa.amount && sameAccount(b.accountID, aa.accountID));
  if (exact) return exact.is_approval ?? false;
  return list.some((b) => sameAccount(b.accountID, aa.accountID) && (b.is_approval ?? false));
}

/**
 * A paid staking reward restarts the account's stake period: it earns again from the day before the payout
 * (so that the day it is paid counts once the day ends).
 */
export function stakingRewards(ctx: ItemContext): void {
  const { item } = ctx;
  const day = item.consensusTimestamp / 86_400_000_000_000n - 1n;
  for (const aa of item.record.paid_staking_rewards) {
    const id = accountId(aa.accountID);
    if (id !== 0n) ctx.rows.change('entity', { ...entityRow(id), stake_period_start: day }, item.consensusTimestamp);
  }
}
