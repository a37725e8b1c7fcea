/**
 * A block's transactions as the reference's Rosetta turns them into operations
 * (rosetta/app/persistence/transaction.go): transactions with the same hash (a duplicate submission and the
 * original) are one Rosetta transaction. Per record: the hbar transfers the body asked for (the itemized transfers,
 * kept only for accounts the record's transfer list has) with the transaction's type and status; what else each
 * account paid or got is its `FEE`, always `SUCCESS`; staking reward payouts, and the reward account's debit for them,
 * are `SUCCESS` `CRYPTOTRANSFER`s. A transaction whose every record failed shows one 0-amount operation of its payer
 * with the failed status.
 */
import type { RosettaTransactionRow } from '../../../db/queries/rosetta-blocks.ts';
import { hex } from '../../format/values.ts';
import { accountAddress, bytesOfHex } from './account-id.ts';
import { hbarAmount } from './currency.ts';
import { type AccountNum, entityIdText, entityOfEncoded } from './entity-id.ts';
import type { Operation, Transaction } from './mesh-types.ts';
import {
  CRYPTO_TRANSFER_OPERATION_TYPE,
  FEE_OPERATION_TYPE,
  isSuccessfulResult,
  operationStatus,
  operationType,
  SUCCESS_STATUS,
} from './operation-types.ts';

interface HbarTransfer {
  readonly account: bigint;
  readonly amount: bigint;
}

const utf8 = new TextDecoder('utf-8');

const asBigInt = (value: unknown): bigint => BigInt(value as bigint | number | string);

/** An itemized transfer's `entity_id`: the encoded id (how the importer writes it) or `shard.realm.num`. */
function itemizedEntity(value: unknown): bigint {
  if (typeof value === 'string' && value.includes('.')) {
    const [shard, realm, num] = value.split('.').map(BigInt) as [bigint, bigint, bigint];
    return (shard << 54n) | (realm << 38n) | num;
  }
  return asBigInt(value);
}

function transfersOf(json: unknown): HbarTransfer[] {
  return ((json as { account_id: unknown; amount: unknown }[] | null) ?? []).map((t) => ({
    account: asBigInt(t.account_id),
    amount: asBigInt(t.amount),
  }));
}

function itemizedOf(json: unknown): HbarTransfer[] {
  return ((json as { entity_id: unknown; amount: unknown }[] | null) ?? []).map((t) => ({
    account: itemizedEntity(t.entity_id),
    amount: asBigInt(t.amount),
  }));
}

/** `categorizeHbarTransfers`: the fee, itemized and staking reward transfers of one record. */
function categorize(
  transfers: readonly HbarTransfer[],
  itemized: readonly HbarTransfer[],
  payouts: readonly HbarTransfer[],
  stakingRewardAccount: bigint,
): { fees: HbarTransfer[]; itemized: HbarTransfer[]; stakingRewards: HbarTransfer[] } {
  const listed = new Set(transfers.map((t) => t.account));
  const kept = itemized.filter(
    (t) => listed.has(t.account) || (t.account === stakingRewardAccount && payouts.length > 0),
  );
  const payoutTotal = payouts.reduce((sum, t) => sum - t.amount, 0n);
  const stakingRewards =
    payoutTotal !== 0n ? [...payouts, { account: stakingRewardAccount, amount: payoutTotal }] : [...payouts];
  // What the itemized transfers (all of them) and the staking rewards explain of each account's net transfer.
  const explained = new Map<bigint, bigint>();
  for (const t of [...itemized, ...stakingRewards])
    explained.set(t.account, (explained.get(t.account) ?? 0n) + t.amount);
  const net = new Map<bigint, bigint>();
  for (const t of transfers) net.set(t.account, (net.get(t.account) ?? 0n) + t.amount);
  const fees: HbarTransfer[] = [];
  for (const [account, amount] of net) {
    const fee = amount - (explained.get(account) ?? 0n);
    if (fee !== 0n) fees.push({ account, amount: fee });
  }
  return { fees, itemized: kept, stakingRewards };
}

/** The aliases (hex) of the accounts a block's rows name, from the transfers and payers read with them. */
function aliasesOf(rows: readonly RosettaTransactionRow[]): Map<bigint, string> {
  const aliases = new Map<bigint, string>();
  for (const row of rows) {
    if (row.payer_alias) aliases.set(asBigInt(row.payer_account_id), row.payer_alias);
    for (const t of (row.crypto_transfers as { account_id: unknown; alias: string | null }[] | null) ?? []) {
      if (t.alias) aliases.set(asBigInt(t.account_id), t.alias);
    }
  }
  return aliases;
}

/**
 * The Rosetta transactions of `rows` (one block's, or one hash's, in consensus order), in the order their hashes
 * first appear; `stakingRewardAccount` is 0.0.800's encoded id.
 */
export function meshTransactions(
  rows: readonly RosettaTransactionRow[],
  stakingRewardAccount: AccountNum,
): Transaction[] {
  const aliases = aliasesOf(rows);
  const addresses = new Map<bigint, string>();
  const address = (account: bigint) => {
    let known = addresses.get(account);
    if (known === undefined) {
      const alias = aliases.get(account);
      known = accountAddress(entityOfEncoded(account), alias ? bytesOfHex(alias) : null);
      addresses.set(account, known);
    }
    return known;
  };
  const byHash = new Map<string, RosettaTransactionRow[]>();
  for (const row of rows) {
    const hash = `0x${row.transaction_hash ? hex(row.transaction_hash) : ''}`;
    const same = byHash.get(hash);
    if (same) same.push(row);
    else byHash.set(hash, [row]);
  }
  return [...byHash].map(([hash, records]) => {
    const first = records[0] as RosettaTransactionRow;
    const type = operationType(first.type);
    const operations: Operation[] = [];
    const append = (status: string, operation: string, transfers: readonly HbarTransfer[]) => {
      for (const t of transfers) {
        operations.push({
          operation_identifier: { index: operations.length },
          type: operation,
          status,
          account: { address: address(t.account) },
          amount: hbarAmount(t.amount),
        });
      }
    };
    let allFailed = true;
    let entityId: string | null = null;
    for (const record of records) {
      const { fees, itemized, stakingRewards } = categorize(
        transfersOf(record.crypto_transfers),
        itemizedOf(record.itemized_transfer),
        transfersOf(record.staking_reward_payouts),
        stakingRewardAccount.encoded,
      );
      append(operationStatus(record.result), type, itemized);
      append(SUCCESS_STATUS, FEE_OPERATION_TYPE, fees);
      append(SUCCESS_STATUS, CRYPTO_TRANSFER_OPERATION_TYPE, stakingRewards);
      if (isSuccessfulResult(record.result)) {
        allFailed = false;
        entityId = record.entity_id;
      }
    }
    if (allFailed) {
      append(operationStatus(first.result), type, [{ account: asBigInt(first.payer_account_id), amount: 0n }]);
    }
    const memo = first.memo && first.memo.length > 0 ? utf8.decode(first.memo) : undefined;
    // A map in Go: its keys sorted.
    const metadata = {
      ...(entityId !== null ? { entity_id: entityIdText(entityOfEncoded(asBigInt(entityId))) } : {}),
      ...(memo !== undefined ? { memo } : {}),
    };
    return {
      transaction_identifier: { hash },
      operations,
      ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    };
  });
}
