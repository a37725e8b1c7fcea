/**
 * Airdrops (HIP-904) submitted to a node: TokenAirdrop delivers at once to a receiver associated with the token (or
 * with a free automatic association slot), through the same transfer handling as a CryptoTransfer, and leaves the rest
 * pending; TokenClaimAirdrop (the receivers sign) delivers pending ones, TokenCancelAirdrop (the senders sign) drops
 * them. Pending airdrops live in the ledger model as the generated airdrops keep them (mix/airdrops.ts). The payer
 * pays for the pending airdrops and automatic associations an airdrop makes (`airdropFee`).
 */

import type { Account, Ledger, LedgerKey, Token } from '../../ledger/ledger.ts';
import {
  addPendingAirdrop,
  claimPendingAirdrop,
  forgetPendingAirdrop,
  newPendingAirdropPb,
  type PendingAirdrop,
  pendingAirdropKey,
} from '../../mix/airdrops.ts';
import { PRICE_TINYCENTS, tinybarsOf } from '../../network/fees.ts';
import { TokenTransfers } from '../../network/transfers.ts';
import { numOf } from '../entity-ids.ts';
import { bigOf, ensure, type Handling, type Pb, type TxHandler } from '../handling.ts';
import { isNewAlias } from './auto-create.ts';
import { liveAccount, liveToken } from './lookups.ts';
import { cryptoTransfer } from './transfer.ts';

/** `tokens.maxAllowedAirdropTransfersPerTx` applies to lists; `tokens.maxAllowedPendingAirdropsToClaim` to ids. */
const MAX_TOKEN_LISTS = 10;
const MAX_PENDING_IDS = 10;

const list = (value: unknown): Pb[] => (Array.isArray(value) ? (value as Pb[]) : []);

/**
 * What an airdrop charges beyond its CryptoTransfer base price (TokenAirdropHandler.chargeAirdropFee): the airdrop
 * fee ($0.05) for each new pending airdrop together with the association it prepays (a TokenAssociate, $0.05), the
 * airdrop fee alone for a fungible airdrop already pending, and for a delivery that takes one of a receiver's
 * unlimited automatic associations.
 */
const AIRDROP_FEE_TINYCENTS = 500_000_000n;

function airdropFee(ledger: Ledger, counts: { created: number; topped: number; unlimited: number }): bigint {
  const created = BigInt(counts.created) * (AIRDROP_FEE_TINYCENTS + PRICE_TINYCENTS.tokenAssociate);
  const others = BigInt(counts.topped + counts.unlimited) * AIRDROP_FEE_TINYCENTS;
  return tinybarsOf(created + others, ledger.exchangeRate);
}

export const tokenAirdrop: TxHandler = {
  price: () => ({ kind: 'tokenAirdrop' }),
  pure: (data, body) => {
    const lists = list(data.token_transfers);
    ensure(lists.length > 0, 'EMPTY_TOKEN_TRANSFER_BODY');
    ensure(lists.length <= MAX_TOKEN_LISTS, 'TOKEN_TRANSFER_LIST_SIZE_LIMIT_EXCEEDED');
    for (const tokenList of lists) {
      const debits = list(tokenList.transfers).filter((entry) => bigOf(entry.amount) < 0n);
      ensure(debits.length <= 1, 'AIRDROP_CONTAINS_MULTIPLE_SENDERS_FOR_A_TOKEN');
    }
    cryptoTransfer.pure?.({ tokenTransfers: lists }, body);
  },
  handle: (tx) => {
    const { net, data, signatures } = tx;
    const { ledger } = net;
    const immediate: Pb[] = [];
    const pending: PendingAirdrop[] = [];
    const amounts = new Map<string, bigint>();
    const senderKeys: LedgerKey[] = [];
    const slotsTaken = new Map<bigint, number>();
    const counts = { created: 0, topped: 0, unlimited: 0 };
    /** Delivered now: associated, or a free slot, and no receiver signature wanted that is missing. */
    const deliversNow = (receiver: Account, token: Token) => {
      if (receiver.receiverSigRequired && !(receiver.key && signatures.satisfies(receiver.key))) return false;
      if (ledger.isAssociated(receiver.num, token.num)) return true;
      const taken = slotsTaken.get(receiver.num) ?? 0;
      if (ledger.freeAutoAssociations(receiver) <= taken) return false;
      slotsTaken.set(receiver.num, taken + 1);
      if (receiver.maxAutoAssociations < 0) counts.unlimited++;
      return true;
    };
    const holds = (sender: Account, token: Token, entry: Pb | undefined) => {
      ensure(ledger.isAssociated(sender.num, token.num), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
      ensure(!token.frozen?.has(sender.num), 'ACCOUNT_FROZEN_FOR_TOKEN');
      if (token.settings?.kycKey) ensure(token.kycGranted?.has(sender.num), 'ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN');
      if (!entry?.is_approval && sender.key) senderKeys.push(sender.key);
    };
    for (const tokenList of list(data.token_transfers)) {
      const token = liveToken(ledger, tokenList.token);
      ensure(!token.paused, 'TOKEN_IS_PAUSED');
      const entries = list(tokenList.transfers);
      const debit = entries.find((entry) => bigOf(entry.amount) < 0n);
      const direct: Pb[] = [];
      let directSum = 0n;
      for (const entry of entries) {
        const amount = bigOf(entry.amount);
        if (amount <= 0n) continue;
        // An alias no account has yet gets an account with free slots: delivered at once (auto-create.ts).
        const receiver = isNewAlias(ledger, entry.accountID) ? undefined : liveAccount(ledger, entry.accountID);
        if (!receiver || deliversNow(receiver, token)) {
          direct.push(entry);
          directSum += amount;
          continue;
        }
        ensure(debit, 'INVALID_ACCOUNT_AMOUNTS');
        const sender = liveAccount(ledger, debit.accountID);
        holds(sender, token, debit);
        const airdrop = { sender: sender.num, receiver: receiver.num, token: token.num, serial: undefined };
        if (ledger.pendingAirdrops.has(pendingAirdropKey(airdrop))) counts.topped++;
        else counts.created++;
        pending.push(airdrop);
        amounts.set(pendingAirdropKey(airdrop), amount);
      }
      if (debit) {
        const sender = liveAccount(ledger, debit.accountID);
        ensure(ledger.tokenBalance(sender.num, token.num) >= -bigOf(debit.amount), 'INSUFFICIENT_TOKEN_BALANCE');
      }
      const nftsNow: Pb[] = [];
      for (const move of list(tokenList.nftTransfers)) {
        const receiver = isNewAlias(ledger, move.receiverAccountID)
          ? undefined
          : liveAccount(ledger, move.receiverAccountID);
        if (!receiver || deliversNow(receiver, token)) {
          nftsNow.push(move);
          continue;
        }
        const sender = liveAccount(ledger, move.senderAccountID);
        const serial = bigOf(move.serialNumber);
        const nft = ledger.nft(token.num, serial);
        ensure(nft && !nft.deleted, 'INVALID_NFT_ID');
        ensure(nft.owner === sender.num, 'SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
        ensure(!ledger.pendingNftSerials.has(`${token.num}/${serial}`), 'PENDING_NFT_AIRDROP_ALREADY_EXISTS');
        const fallback = token.settings?.customFees?.some((fee) => fee.royalty?.fallback);
        ensure(!fallback, 'TOKEN_AIRDROP_WITH_FALLBACK_ROYALTY');
        holds(sender, token, move);
        counts.created++;
        pending.push({ sender: sender.num, receiver: receiver.num, token: token.num, serial });
      }
      if (direct.length > 0 && debit) {
        immediate.push({
          token: tokenList.token,
          transfers: [{ ...debit, amount: String(-directSum) }, ...direct],
          ...(tokenList.expected_decimals ? { expected_decimals: tokenList.expected_decimals } : {}),
        });
      } else if (nftsNow.length > 0) immediate.push({ token: tokenList.token, nftTransfers: nftsNow });
    }
    const delivery: Handling | undefined =
      immediate.length > 0 ? cryptoTransfer.handle({ ...tx, data: { tokenTransfers: immediate } }) : undefined;
    const extraFee = airdropFee(ledger, counts);
    return {
      requiredKeys: [...(delivery?.requiredKeys ?? []), ...senderKeys],
      children: () => delivery?.children?.() ?? [],
      execute: async (ctx) => {
        const payer = ledger.account(tx.payer);
        ensure(payer.balance >= tx.fee + extraFee, 'INSUFFICIENT_PAYER_BALANCE');
        const delivered = delivery ? await delivery.execute(ctx) : {};
        const outcome = extraFee > 0n ? { ...delivered, fee: (delivered.fee ?? tx.fee) + extraFee } : delivered;
        for (const airdrop of pending)
          addPendingAirdrop(ledger, airdrop, amounts.get(pendingAirdropKey(airdrop)) ?? 1n, false);
        const records = pending.map((airdrop) => newPendingAirdropPb(ledger, airdrop));
        return {
          ...outcome,
          record: { ...outcome.record, ...(records.length > 0 ? { new_pending_airdrops: records } : {}) },
        };
      },
    };
  },
};

/** A PendingAirdropId as the ledger keys it; one naming no token or accounts names no pending airdrop. */
function pendingOf(pb: Pb): PendingAirdrop {
  const nft = pb.non_fungible_token as Pb | undefined;
  const token = nft ? numOf(nft.token_ID, 'tokenNum') : numOf(pb.fungible_token_type, 'tokenNum');
  return {
    sender: numOf(pb.sender_id, 'accountNum'),
    receiver: numOf(pb.receiver_id, 'accountNum'),
    token,
    serial: nft ? bigOf(nft.serial_number) : undefined,
  };
}

function checkIds(data: Pb): void {
  const ids = list(data.pending_airdrops);
  ensure(ids.length > 0, 'EMPTY_PENDING_AIRDROP_ID_LIST');
  ensure(ids.length <= MAX_PENDING_IDS, 'PENDING_AIRDROP_ID_LIST_TOO_LONG');
  const keys = ids.map((id) => {
    const pending = pendingOf(id);
    ensure(pending.sender > 0n && pending.receiver > 0n && pending.token > 0n, 'INVALID_PENDING_AIRDROP_ID');
    return pendingAirdropKey(pending);
  });
  ensure(new Set(keys).size === keys.length, 'PENDING_AIRDROP_ID_REPEATED');
}

/** The pending airdrops a claim or cancellation names, each one the model still has. */
function existing(ledger: Ledger, data: Pb) {
  return list(data.pending_airdrops).map((id) => {
    const pending = pendingOf(id);
    const amount = ledger.pendingAirdrops.get(pendingAirdropKey(pending));
    ensure(amount !== undefined, 'INVALID_PENDING_AIRDROP_ID');
    return { pending, amount };
  });
}

export const tokenClaimAirdrop: TxHandler = {
  price: () => ({ kind: 'claimAirdrop' }),
  pure: checkIds,
  handle: (tx) => {
    const { ledger } = tx.net;
    const claims = existing(ledger, tx.data);
    const keys: LedgerKey[] = [];
    for (const { pending, amount } of claims) {
      const receiver = liveAccount(ledger, { accountNum: String(pending.receiver) });
      if (receiver.key) keys.push(receiver.key);
      const token = liveToken(ledger, { tokenNum: String(pending.token) });
      ensure(!token.paused, 'TOKEN_IS_PAUSED');
      ensure(!token.frozen?.has(pending.sender), 'ACCOUNT_FROZEN_FOR_TOKEN');
      if (pending.serial === undefined)
        ensure(ledger.tokenBalance(pending.sender, token.num) >= amount, 'INSUFFICIENT_TOKEN_BALANCE');
      else ensure(ledger.nft(token.num, pending.serial)?.owner === pending.sender, 'SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
    }
    return {
      requiredKeys: keys,
      execute: () => {
        const tokens = new TokenTransfers();
        const associations: Pb[] = [];
        for (const { pending, amount } of claims) {
          const { association } = claimPendingAirdrop(tx.net, pending, amount, tokens);
          if (association) associations.push(association);
        }
        return {
          tokens,
          ...(associations.length > 0 ? { record: { automatic_token_associations: associations } } : {}),
        };
      },
    };
  },
};

/** Cancelled by the senders, whatever became of the token since (frozen, paused, deleted). */
export const tokenCancelAirdrop: TxHandler = {
  price: () => ({ kind: 'claimAirdrop' }),
  pure: checkIds,
  handle: (tx) => {
    const { ledger } = tx.net;
    const cancels = existing(ledger, tx.data);
    const keys = cancels.flatMap(({ pending }) => ledger.accounts.get(pending.sender)?.key ?? []);
    return {
      requiredKeys: keys,
      execute: () => {
        for (const { pending } of cancels) forgetPendingAirdrop(ledger, pending);
        return {};
      },
    };
  },
};
