/**
 * Airdrops (HIP-904): a holder sends tokens to accounts that may not be associated. Associated receivers (or
 * ones with a free auto-association slot) get them at once; the others get a pending airdrop that they claim
 * later, or that the sender cancels when it no longer has what it promised. Pending keys in the ledger:
 * `sender/receiver/token` (fungible, amounts add up) and `sender/receiver/token/serial`.
 */
import { accountPb, i64, tokenPb } from '../ledger/ids.ts';
import type { Ledger } from '../ledger/ledger.ts';
import type { Network, Outcome } from '../network/network.ts';
import { TokenTransfers } from '../network/transfers.ts';
import { HBAR, otherUser } from './pick.ts';
import { applyTokenTransfers } from './tokens.ts';

/** A pending airdrop as the ledger keys it: fungible amounts from one sender to one receiver add up; an NFT is one serial. */
export interface PendingAirdrop {
  readonly sender: bigint;
  readonly receiver: bigint;
  readonly token: bigint;
  readonly serial: bigint | undefined;
}

export function pendingAirdropKey({ sender, receiver, token, serial }: PendingAirdrop): string {
  return serial === undefined ? `${sender}/${receiver}/${token}` : `${sender}/${receiver}/${token}/${serial}`;
}

export function pendingIdPb({ sender, receiver, token, serial }: PendingAirdrop): Record<string, unknown> {
  return {
    sender_id: accountPb(sender),
    receiver_id: accountPb(receiver),
    ...(serial === undefined
      ? { fungible_token_type: tokenPb(token) }
      : { non_fungible_token: { token_ID: tokenPb(token), serial_number: i64(serial) } }),
  };
}

/**
 * Records a pending airdrop of `amount` (1 for an NFT) in the model. `pooled`: the generated load may claim or cancel
 * it; one a client's transaction made stays out, so only its sender and receiver settle it.
 */
export function addPendingAirdrop(ledger: Ledger, pending: PendingAirdrop, amount: bigint, pooled = true): void {
  const key = pendingAirdropKey(pending);
  ledger.pendingAirdrops.set(key, (ledger.pendingAirdrops.get(key) ?? 0n) + amount);
  if (pooled) ledger.airdropKeys.add(key);
  if (pending.serial !== undefined) ledger.pendingNftSerials.add(`${pending.token}/${pending.serial}`);
}

/** Removes a pending airdrop that was claimed or cancelled. */
export function forgetPendingAirdrop(ledger: Ledger, pending: PendingAirdrop): void {
  const key = pendingAirdropKey(pending);
  ledger.pendingAirdrops.delete(key);
  ledger.airdropKeys.delete(key);
  if (pending.serial !== undefined) ledger.pendingNftSerials.delete(`${pending.token}/${pending.serial}`);
}

/**
 * The record's `new_pending_airdrops` entry of one pending airdrop, once recorded in the model: a fungible one states
 * the amount now pending, this airdrop's added to what the sender had promised the receiver before, as the node
 * reports it (a mirror takes it as the airdrop's amount).
 */
export function newPendingAirdropPb(ledger: Ledger, pending: PendingAirdrop): Record<string, unknown> {
  const amount = ledger.pendingAirdrops.get(pendingAirdropKey(pending)) ?? 0n;
  return {
    pending_airdrop_id: pendingIdPb(pending),
    ...(pending.serial === undefined ? { pending_airdrop_value: { amount: i64(amount) } } : {}),
  };
}

/**
 * A claim: the receiver associated (automatically, when it was not) and the pending tokens moved from the sender.
 * Returns the transfers (added to `into`, a claim of several airdrops lists them together) and, when it associated the
 * receiver, the association for the record.
 */
export function claimPendingAirdrop(
  net: Network,
  pending: PendingAirdrop,
  amount: bigint,
  into = new TokenTransfers(),
): { tokens: TokenTransfers; association: Record<string, unknown> | undefined } {
  const { ledger } = net;
  const { sender, receiver, token, serial } = pending;
  forgetPendingAirdrop(ledger, pending);
  const associates = !ledger.isAssociated(receiver, token);
  if (associates) ledger.associate(receiver, token);
  const move = (list: TokenTransfers) =>
    serial === undefined
      ? list.add(token, sender, -amount).add(token, receiver, amount)
      : list.nft(token, { serial, from: sender, to: receiver });
  applyTokenTransfers(net, move(new TokenTransfers()));
  move(into);
  return {
    tokens: into,
    association: associates ? { token_id: tokenPb(token), account_id: accountPb(receiver) } : undefined,
  };
}

export async function airdrop(net: Network): Promise<boolean> {
  const { ledger, random } = net;
  const nft = random.chance(0.3);
  const num = (nft ? ledger.nftTokens : ledger.fungibleTokens).pick(random);
  const token = num === undefined ? undefined : ledger.tokens.get(num);
  const holders = num === undefined ? undefined : ledger.associations.get(num);
  if (!token || !holders) return false;
  const sender = holders.find(
    random,
    (a) => ledger.tokenBalance(a, token.num) > 0n && ledger.account(a).balance >= 10n * HBAR,
  );
  if (sender === undefined) return false;
  const receivers = [...new Set(Array.from({ length: random.int(1, 3) }, () => otherUser(net, sender)?.num))].filter(
    (r) => r !== undefined,
  );
  const serials = nft
    ? ledger.nftsOwnedBy(sender, token.num, 20).filter((s) => !ledger.pendingNftSerials.has(`${token.num}/${s}`))
    : [];
  const body = new TokenTransfers();
  const direct = new TokenTransfers();
  const associations: bigint[] = [];
  const pending: { receiver: bigint; serial: bigint | undefined; amount: bigint }[] = [];
  let budget = ledger.tokenBalance(sender, token.num) / 4n;
  for (const receiver of receivers) {
    const serial = nft ? serials.shift() : undefined;
    const amount = nft ? 1n : random.bigint(1n, budget > 1n ? budget : 1n);
    if ((nft && serial === undefined) || (!nft && amount > budget)) break;
    if (!nft) budget -= amount;
    const associated = ledger.isAssociated(receiver, token.num);
    const auto = !associated && ledger.freeAutoAssociations(ledger.account(receiver)) > associations.length;
    const target = associated || auto ? direct : undefined;
    for (const list of target ? [body, target] : [body]) {
      if (serial !== undefined) list.nft(token.num, { serial, from: sender, to: receiver });
      else list.add(token.num, sender, -amount).add(token.num, receiver, amount);
    }
    if (auto) associations.push(receiver);
    if (!target) pending.push({ receiver, serial, amount });
  }
  if (body.isEmpty) return false;
  await net.submit({
    payer: sender,
    body: { tokenAirdrop: { token_transfers: body.toPb() } },
    price: 'tokenAirdrop',
    execute: (): Outcome => {
      for (const receiver of associations) ledger.autoAssociate(receiver, token.num);
      applyTokenTransfers(net, direct);
      for (const { receiver, serial, amount } of pending)
        addPendingAirdrop(ledger, { sender, receiver, token: token.num, serial }, amount);
      return {
        tokens: direct,
        record: {
          ...(associations.length > 0
            ? {
                automatic_token_associations: associations.map((a) => ({
                  token_id: tokenPb(token.num),
                  account_id: accountPb(a),
                })),
              }
            : {}),
          ...(pending.length > 0
            ? {
                new_pending_airdrops: pending.map(({ receiver, serial }) =>
                  newPendingAirdropPb(ledger, { sender, receiver, token: token.num, serial }),
                ),
              }
            : {}),
        },
      };
    },
  });
  return true;
}

/** The receiver claims a pending airdrop; if the sender can no longer deliver it, the sender cancels it. */
export async function claimOrCancel(net: Network): Promise<boolean> {
  const { ledger, random } = net;
  const key = ledger.airdropKeys.pick(random);
  if (!key) return false;
  const [sender = 0n, receiver = 0n, token = 0n, serial] = key.split('/').map(BigInt);
  const amount = ledger.pendingAirdrops.get(key) ?? 0n;
  const deliverable =
    serial === undefined
      ? ledger.tokenBalance(sender, token) >= amount
      : ledger.nft(token, serial)?.owner === sender && ledger.nft(token, serial)?.deleted === false;
  const claims = deliverable && !ledger.account(receiver).deleted && ledger.account(receiver).balance >= 5n * HBAR;
  const payer = claims ? receiver : sender;
  if (ledger.account(payer).balance < 5n * HBAR) return false;
  const pending: PendingAirdrop = { sender, receiver, token, serial };
  const id = pendingIdPb(pending);
  await net.submit({
    payer,
    body: claims
      ? { tokenClaimAirdrop: { pending_airdrops: [id] } }
      : { tokenCancelAirdrop: { pending_airdrops: [id] } },
    price: 'claimAirdrop',
    execute: (): Outcome => {
      if (!claims) {
        forgetPendingAirdrop(ledger, pending);
        return {};
      }
      const { tokens, association } = claimPendingAirdrop(net, pending, amount);
      return { tokens, ...(association ? { record: { automatic_token_associations: [association] } } : {}) };
    },
  });
  return true;
}
