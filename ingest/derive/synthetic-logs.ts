/**
 * Synthetic ERC-20/721 events for HTS operations (the importer's SyntheticContractLogServiceImpl), so EVM tooling
 * sees token movements and approvals that no contract emitted: `Transfer` logs for the token transfers of a
 * record (fungible lists paired sender to receiver, mint, burn and wipe entries from or to the zero address, one
 * indexed log per NFT), `Approval` and `ApprovalForAll` logs for a CryptoApproveAllowance or
 * CryptoDeleteAllowance. Their `index` continues the record file's one log counter; the EVM address lookups of
 * the transfer logs' topics happen once the file's entities are written (ingest/sink/synthetic-log-addresses.ts).
 */

import { fromBigInt } from '../decode/ethereum-transaction.ts';
import type { PbAccountAmount, PbEntityId, PbTransactionRecord } from '../decode/types.ts';
import { accountId, contractId, type ItemContext, idParts, serviceBody, tokenId } from './context.ts';
import { itemTransactionHash } from './ethereum.ts';

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = new Uint8Array(
  Buffer.from('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', 'hex'),
);
/** keccak256("Approval(address,address,uint256)") */
const APPROVAL_TOPIC = new Uint8Array(
  Buffer.from('8c5be1e5ebec7d5bd14f71427d1e84f3dd0314c0f7b2291e5b200ac8c7c3b925', 'hex'),
);
/** keccak256("ApprovalForAll(address,address,bool)") */
const APPROVAL_FOR_ALL_TOPIC = new Uint8Array(
  Buffer.from('17307eab39ab6107e8899845ad3d59bd9653f200f220920489ca2b5937696c31', 'hex'),
);
/** The bloom a log of contract origin carries until its real bloom is computed (CONTRACT_LOG_MARKER). */
export const CONTRACT_LOG_MARKER = new Uint8Array([1]);
const NO_BLOOM = new Uint8Array([0]);
/** A log without data stores one zero byte. */
const NO_DATA = new Uint8Array([0]);

const TOKEN_CREATION = 29;
const TOKEN_MINT = 37;
const TOKEN_BURN = 38;
const TOKEN_WIPE = 39;
const MINT_LIKE: ReadonlySet<number> = new Set([TOKEN_CREATION, TOKEN_MINT, TOKEN_BURN, TOKEN_WIPE]);
/** From this HAPI version on, nodes emit the logs of contract-originated transfers themselves. */
const NODE_EMITTED_MINOR = 71;

/** A log topic for an entity: its long-zero EVM address without leading zero bytes (0.0.0 → empty). */
function addressTopic(id: bigint): Uint8Array {
  return id === 0n ? new Uint8Array() : fromBigInt(idParts(id).num);
}

/** The record has a function result (set, even to the default instance): the operation came from a contract. */
export function hasFunctionResult(record: PbTransactionRecord): boolean {
  return record.contractCallResult !== undefined || record.contractCreateResult !== undefined;
}

/** A synthetic transfer log whose topics and bloom still wait for the EVM address lookups of the file. */
export interface SyntheticTransfer {
  readonly consensusTimestamp: bigint;
  readonly index: number;
  readonly contractId: bigint;
  readonly sender: bigint;
  readonly receiver: bigint;
  /** The log carries CONTRACT_LOG_MARKER: its bloom is computed from the looked-up addresses. */
  readonly marker: boolean;
}

interface SyntheticLog {
  readonly token: bigint;
  readonly topic0: Uint8Array;
  readonly from: bigint;
  readonly to: bigint;
  readonly topic3: Uint8Array | null;
  readonly data: Uint8Array | null;
  /** A fungible Transfer (TransferContractLog), the only kind written for operations of contract origin. */
  readonly transfer: boolean;
}

function emit(ctx: ItemContext, log: SyntheticLog): void {
  const { item, rows } = ctx;
  const contractOrigin = hasFunctionResult(item.record);
  if (contractOrigin && (!log.transfer || ctx.hapiMinor >= NODE_EMITTED_MINOR)) return;
  // A child of a contract call or create is attributed to its parent: the parent's time, transaction and contract.
  const parent = ctx.parent && hasFunctionResult(ctx.parent.record) ? ctx.parent : undefined;
  const at = parent ?? item;
  const index = rows.nextLogIndex();
  const contract = parent ? contractId(parent.record.contractCallResult?.contractID) : log.token;
  const bloom = contractOrigin ? CONTRACT_LOG_MARKER : NO_BLOOM;
  rows.insert('contract_log', {
    bloom,
    consensus_timestamp: at.consensusTimestamp,
    contract_id: contract || null,
    data: log.data ?? NO_DATA,
    index,
    payer_account_id: item.payerAccountId,
    root_contract_id: (parent ? contractId(parent.record.receipt?.contractID) : log.token) || null,
    synthetic: log.transfer,
    topic0: log.topic0,
    topic1: addressTopic(log.from),
    topic2: addressTopic(log.to),
    topic3: log.topic3,
    transaction_hash: itemTransactionHash(at),
    transaction_index: at.index,
  });
  if (log.transfer) {
    rows.syntheticTransfers.push({
      consensusTimestamp: at.consensusTimestamp,
      index,
      contractId: contract,
      sender: log.from,
      receiver: log.to,
      marker: contractOrigin,
    });
  }
}

const transfer = (token: bigint, from: bigint, to: bigint, amount: bigint): SyntheticLog => ({
  token,
  topic0: TRANSFER_TOPIC,
  from,
  to,
  topic3: null,
  data: fromBigInt(amount),
  transfer: true,
});

interface Transfer {
  readonly sender: bigint;
  readonly receiver: bigint;
  readonly amount: bigint;
}

function compareAccounts(a: bigint, b: bigint): number {
  const x = idParts(a);
  const y = idParts(b);
  return x.shard !== y.shard
    ? Number(x.shard - y.shard)
    : x.realm !== y.realm
      ? Number(x.realm - y.realm)
      : Number(x.num - y.num);
}

/**
 * The importer's TransferEventsGenerator: senders (amount ≤ 0) and receivers by |amount| descending, ties by
 * shard, realm, num; two cursors emit min(remaining) until either list runs out, a zero amount included.
 */
export function pairTransfers(entries: readonly { account: bigint; amount: bigint }[]): Transfer[] {
  if (entries.length < 2) return [];
  const order = (a: { account: bigint; amount: bigint }, b: { account: bigint; amount: bigint }) => {
    const byAmount = (b.amount < 0n ? -b.amount : b.amount) - (a.amount < 0n ? -a.amount : a.amount);
    return byAmount !== 0n ? (byAmount > 0n ? 1 : -1) : compareAccounts(a.account, b.account);
  };
  const senders = entries
    .filter((e) => e.amount <= 0n)
    .sort(order)
    .map((e) => ({ account: e.account, left: -e.amount }));
  const receivers = entries
    .filter((e) => e.amount > 0n)
    .sort(order)
    .map((e) => ({ account: e.account, left: e.amount }));
  const out: Transfer[] = [];
  let s = 0;
  let r = 0;
  while (s < senders.length && r < receivers.length) {
    const sender = senders[s] as { account: bigint; left: bigint };
    const receiver = receivers[r] as { account: bigint; left: bigint };
    const amount = sender.left < receiver.left ? sender.left : receiver.left;
    out.push({ sender: sender.account, receiver: receiver.account, amount });
    sender.left -= amount;
    receiver.left -= amount;
    if (sender.left === 0n) s++;
    if (receiver.left === 0n) r++;
  }
  return out;
}

/** Transfer logs for the token transfers of a successful (or FAIL_INVALID) item, list by list. */
export function syntheticTransferLogs(ctx: ItemContext): void {
  const { item } = ctx;
  for (const list of item.record.tokenTransferLists) {
    const token = tokenId(list.token);
    const entries = list.transfers.map((aa: PbAccountAmount) => ({
      account: accountId(aa.accountID),
      amount: aa.amount ?? 0n,
    }));
    if (MINT_LIKE.has(item.type)) {
      for (const e of entries) {
        const amount = e.amount < 0n ? -e.amount : e.amount;
        emit(ctx, transfer(token, e.amount < 0n ? e.account : 0n, e.amount > 0n ? e.account : 0n, amount));
      }
    }
    for (const t of pairTransfers(entries)) emit(ctx, transfer(token, t.sender, t.receiver, t.amount));
    for (const nft of list.nftTransfers) {
      emit(ctx, {
        token,
        topic0: TRANSFER_TOPIC,
        from: accountId(nft.senderAccountID),
        to: accountId(nft.receiverAccountID),
        topic3: fromBigInt(nft.serialNumber ?? 0n),
        data: null,
        transfer: false,
      });
    }
  }
}

/** An `Approval` of an amount (ApproveAllowanceContractLog). */
export function approvalLog(ctx: ItemContext, token: bigint, owner: bigint, spender: bigint, amount: bigint): void {
  emit(ctx, {
    token,
    topic0: APPROVAL_TOPIC,
    from: owner,
    to: spender,
    topic3: null,
    data: fromBigInt(amount),
    transfer: false,
  });
}

/** An `Approval` of one NFT (ApproveAllowanceIndexedContractLog); spender 0 for a deleted allowance. */
export function nftApprovalLog(ctx: ItemContext, token: bigint, owner: bigint, spender: bigint, serial: bigint): void {
  emit(ctx, {
    token,
    topic0: APPROVAL_TOPIC,
    from: owner,
    to: spender,
    topic3: fromBigInt(serial),
    data: null,
    transfer: false,
  });
}

/** An `ApprovalForAll` (ApproveForAllAllowanceContractLog). */
export function approvalForAllLog(ctx: ItemContext, token: bigint, owner: bigint, spender: bigint, approved: boolean) {
  emit(ctx, {
    token,
    topic0: APPROVAL_FOR_ALL_TOPIC,
    from: owner,
    to: spender,
    topic3: null,
    data: new Uint8Array([approved ? 1 : 0]),
    transfer: false,
  });
}

/** The `Approval` logs of a CryptoDeleteAllowance: one per serial, to no spender, from the owner (the payer by default). */
export function deleteAllowanceLogs(ctx: ItemContext): void {
  const body = serviceBody<{
    nftAllowances: { owner?: PbEntityId; token_id?: PbEntityId; serial_numbers: bigint[] }[];
  }>(ctx);
  for (const allowance of body.nftAllowances) {
    const owner = accountId(allowance.owner) || ctx.item.payerAccountId;
    const token = tokenId(allowance.token_id);
    for (const serial of allowance.serial_numbers) nftApprovalLog(ctx, token, owner, 0n, serial);
  }
}
