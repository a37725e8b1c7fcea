/**
 * Synthetic ERC-20/721 `Transfer` logs for HTS token movements (the reference's syntheticContractLogs), so
 * EVM tooling sees token transfers that no contract emitted. Fungible lists of two entries give one log from
 * the debited to the credited account; longer lists are paired deterministically (senders and receivers by
 * |amount| descending, ties by shard, realm, num; two cursors emit min(remaining) until both run out); mint,
 * burn and wipe give one log per entry from or to the zero address; each NFT transfer gives an indexed log.
 */

import { fromBigInt } from '../decode/ethereum-transaction.ts';
import type { PbAccountAmount } from '../decode/types.ts';
import { accountId, type ItemContext, idParts, tokenId } from './context.ts';

/** keccak256("Transfer(address,address,uint256)") */
const TRANSFER_TOPIC = new Uint8Array(
  Buffer.from('ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', 'hex'),
);
const MINT_LIKE = new Set([29, 37, 38, 39]);
/** From this HAPI version on, nodes emit these logs themselves for contract-originated transfers. */
const NODE_EMITTED_MINOR = 71;

/** The long-zero EVM address of an account with its leading zero bytes trimmed (0.0.0 → empty). */
function addressTopic(id: bigint): Uint8Array {
  return fromBigInt(idParts(id).num);
}

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

/** The pairing rule for lists of more than two entries. */
export function pairTransfers(entries: readonly { account: bigint; amount: bigint }[]): Transfer[] {
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
    if (amount > 0n) out.push({ sender: sender.account, receiver: receiver.account, amount });
    sender.left -= amount;
    receiver.left -= amount;
    if (sender.left === 0n) s++;
    if (receiver.left === 0n) r++;
  }
  return out;
}

function fungibleTransfers(type: number, transfers: readonly PbAccountAmount[]): Transfer[] {
  const entries = transfers.map((aa) => ({ account: accountId(aa.accountID), amount: aa.amount ?? 0n }));
  const out: Transfer[] = [];
  if (MINT_LIKE.has(type)) {
    for (const e of entries) {
      out.push({
        sender: e.amount < 0n ? e.account : 0n,
        receiver: e.amount > 0n ? e.account : 0n,
        amount: e.amount < 0n ? -e.amount : e.amount,
      });
    }
  }
  if (entries.length === 2) {
    const [a, b] = entries as [(typeof entries)[0], (typeof entries)[0]];
    const receiver = a.amount > 0n ? a : b.amount > 0n ? b : undefined;
    const sender = receiver === a ? b : a;
    if (receiver) out.push({ sender: sender.account, receiver: receiver.account, amount: receiver.amount });
  } else if (entries.length > 2) {
    out.push(...pairTransfers(entries));
  }
  return out;
}

export function syntheticTransferLogs(ctx: ItemContext): void {
  const { item, rows } = ctx;
  const { record } = item;
  if (!item.successful || record.tokenTransferLists.length === 0) return;
  const result = record.contractCallResult ?? record.contractCreateResult;
  if (result && ctx.hapiMinor >= NODE_EMITTED_MINOR) return;
  const hash = (record.transactionHash ?? new Uint8Array()).subarray(0, 32);
  let index = result?.logInfo.length ?? 0;
  const log = (token: bigint, sender: bigint, receiver: bigint, topic3: Uint8Array | null, data: Uint8Array) => {
    rows.insert('contract_log', {
      bloom: new Uint8Array([0]),
      consensus_timestamp: item.consensusTimestamp,
      contract_id: token,
      data,
      index: index++,
      payer_account_id: item.payerAccountId,
      root_contract_id: token,
      synthetic: true,
      topic0: TRANSFER_TOPIC,
      topic1: addressTopic(sender),
      topic2: addressTopic(receiver),
      topic3,
      transaction_hash: hash,
      transaction_index: item.index,
    });
  };
  for (const list of record.tokenTransferLists) {
    const token = tokenId(list.token);
    for (const t of fungibleTransfers(item.type, list.transfers))
      log(token, t.sender, t.receiver, null, fromBigInt(t.amount));
    for (const nft of list.nftTransfers) {
      log(
        token,
        accountId(nft.senderAccountID),
        accountId(nft.receiverAccountID),
        fromBigInt(nft.serialNumber ?? 0n),
        new Uint8Array([0]),
      );
    }
  }
}
