/**
 * Custom fees charged on a token transfer, as the consensus node assesses them (HIP-18, HIP-573): for each account that
 * sends units or NFTs of a token with a fee schedule, its fixed fees (hbar or a fungible token; a token fee's own
 * fixed fees in turn, two levels deep at most), its fractional fees (taken from what the receivers get, or added to
 * what the sender pays when net of transfers) and, for NFTs, its royalty fees (a share of the fungible value the
 * sender received in the same transfer, or the fallback fee the receiver pays when there was none). The treasury and
 * the fee's collector (every collector, when the fee says so) are exempt. The charges come back as more transfer-list
 * adjustments and the record's `assessed_custom_fees`.
 */
import { accountPb, i64, tokenPb } from '../../ledger/ids.ts';
import type { CustomFee, FixedFee, Ledger, Token } from '../../ledger/ledger.ts';
import type { NftMove } from '../../network/transfers.ts';
import { ensure, type Pb } from '../handling.ts';

/** `tokens.maxCustomFeeDepth`: the user's transfer, its fees, and the fees of those fees. */
const MAX_DEPTH = 2;

/** Net changes of one transaction: hbar by account, fungible units by token then account. */
export interface Changes {
  readonly hbar: Map<bigint, bigint>;
  readonly units: Map<bigint, Map<bigint, bigint>>;
}

export interface Assessment {
  /** The transfer's changes with every fee added. */
  readonly changes: Changes;
  readonly assessed: Pb[];
  /** Whether any fee was charged (the record then lists them). */
  readonly charged: boolean;
}

const add = (map: Map<bigint, bigint>, account: bigint, amount: bigint) => {
  if (amount !== 0n) map.set(account, (map.get(account) ?? 0n) + amount);
};

function unitsOf(changes: Changes, token: bigint): Map<bigint, bigint> {
  let map = changes.units.get(token);
  if (!map) {
    map = new Map();
    changes.units.set(token, map);
  }
  return map;
}

function exempt(token: Token, fee: CustomFee, payer: bigint): boolean {
  if (payer === token.treasury || payer === fee.collector) return true;
  return fee.allCollectorsExempt && (token.settings?.customFees ?? []).some((other) => other.collector === payer);
}

/**
 * The fees of the transfer whose body changes are `changes` (`nfts`: the NFT moves), added to a copy of them. Throws
 * `Failed` with the node's code when fees nest deeper than the node allows.
 */
export function assessCustomFees(ledger: Ledger, body: Changes, nfts: readonly [bigint, NftMove][]): Assessment {
  const changes: Changes = {
    hbar: new Map(body.hbar),
    units: new Map([...body.units].map(([token, map]) => [token, new Map(map)])),
  };
  const assessed: Pb[] = [];
  const feesOf = (token: bigint) => {
    const model = ledger.tokens.get(token);
    return model && (model.settings?.customFees?.length ?? 0) > 0 ? model : undefined;
  };
  const charge = (token: Token, fee: CustomFee, fixed: FixedFee, payer: bigint, depth: number) => {
    const record: Pb = {
      amount: i64(fixed.amount),
      ...(fixed.denomination !== undefined ? { token_id: tokenPb(fixed.denomination) } : {}),
      fee_collector_account_id: accountPb(fee.collector),
      effective_payer_account_id: [accountPb(payer)],
    };
    assessed.push(record);
    if (fixed.denomination === undefined) {
      add(changes.hbar, payer, -fixed.amount);
      add(changes.hbar, fee.collector, fixed.amount);
      return;
    }
    ensure(ledger.isAssociated(fee.collector, fixed.denomination), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
    const units = unitsOf(changes, fixed.denomination);
    add(units, payer, -fixed.amount);
    add(units, fee.collector, fixed.amount);
    // A fee in another token with fees of its own makes the payer a sender of that token: its fixed fees follow.
    const nested = fixed.denomination === token.num ? undefined : feesOf(fixed.denomination);
    if (nested) fixedFees(nested, payer, depth + 1);
  };
  const fixedFees = (token: Token, sender: bigint, depth: number) => {
    for (const fee of token.settings?.customFees ?? []) {
      if (!fee.fixed || exempt(token, fee, sender)) continue;
      ensure(depth <= MAX_DEPTH, 'CUSTOM_FEE_CHARGING_EXCEEDED_MAX_RECURSION_DEPTH');
      charge(token, fee, fee.fixed, sender, depth);
    }
  };

  for (const [tokenNum, units] of body.units) {
    const token = feesOf(tokenNum);
    if (!token) continue;
    for (const [sender, amount] of units) {
      if (amount >= 0n) continue;
      fixedFees(token, sender, 1);
      for (const fee of token.settings?.customFees ?? []) {
        if (fee.fractional && !exempt(token, fee, sender)) fractional(token, fee, sender, -amount, units);
      }
    }
  }
  function fractional(token: Token, fee: CustomFee, sender: bigint, sent: bigint, bodyUnits: Map<bigint, bigint>) {
    const f = fee.fractional;
    if (!f) return;
    let amount = (sent * f.numerator) / f.denominator;
    if (amount < f.min) amount = f.min;
    if (f.max > 0n && amount > f.max) amount = f.max;
    if (amount === 0n) return;
    const units = unitsOf(changes, token.num);
    if (f.netOfTransfers) {
      add(units, sender, -amount);
      add(units, fee.collector, amount);
      assessed.push(fractionalRecord(token, fee, amount, [sender]));
      return;
    }
    // Taken from the receivers' credits in proportion; what rounding leaves comes from the last one.
    const receivers = [...bodyUnits].filter(([account, credit]) => credit > 0n && account !== fee.collector);
    const credited = receivers.reduce((sum, [, credit]) => sum + credit, 0n);
    ensure(credited >= amount, 'INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
    let left = amount;
    receivers.forEach(([account, credit], i) => {
      const share = i === receivers.length - 1 ? left : (amount * credit) / credited;
      left -= share;
      add(units, account, -share);
    });
    add(units, fee.collector, amount);
    assessed.push(
      fractionalRecord(
        token,
        fee,
        amount,
        receivers.map(([account]) => account),
      ),
    );
  }

  const royaltiesPaid = new Set<string>();
  for (const [tokenNum, move] of nfts) {
    const token = feesOf(tokenNum);
    if (!token || move.from === 0n || move.to === 0n) continue;
    fixedFees(token, move.from, 1);
    const paidKey = `${tokenNum}/${move.from}`;
    if (royaltiesPaid.has(paidKey)) continue;
    royaltiesPaid.add(paidKey);
    for (const fee of token.settings?.customFees ?? []) {
      const royalty = fee.royalty;
      if (!royalty || exempt(token, fee, move.from)) continue;
      // The fungible value the NFT's sender received in this transfer, by denomination (hbar: undefined).
      const received: [bigint | undefined, bigint][] = [];
      const hbarIn = body.hbar.get(move.from) ?? 0n;
      if (hbarIn > 0n) received.push([undefined, hbarIn]);
      for (const [other, units] of body.units) {
        const credit = units.get(move.from) ?? 0n;
        if (credit > 0n && other !== tokenNum) received.push([other, credit]);
      }
      if (received.length === 0) {
        if (royalty.fallback && !exempt(token, fee, move.to)) charge(token, fee, royalty.fallback, move.to, 1);
        continue;
      }
      for (const [denomination, value] of received) {
        const amount = (value * royalty.numerator) / royalty.denominator;
        if (amount === 0n) continue;
        if (denomination === undefined) {
          add(changes.hbar, move.from, -amount);
          add(changes.hbar, fee.collector, amount);
        } else {
          ensure(ledger.isAssociated(fee.collector, denomination), 'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
          const units = unitsOf(changes, denomination);
          add(units, move.from, -amount);
          add(units, fee.collector, amount);
        }
        assessed.push({
          amount: i64(amount),
          ...(denomination !== undefined ? { token_id: tokenPb(denomination) } : {}),
          fee_collector_account_id: accountPb(fee.collector),
          effective_payer_account_id: [accountPb(move.from)],
        });
      }
    }
  }
  return { changes, assessed, charged: assessed.length > 0 };
}

function fractionalRecord(token: Token, fee: CustomFee, amount: bigint, payers: bigint[]): Pb {
  return {
    amount: i64(amount),
    token_id: tokenPb(token.num),
    fee_collector_account_id: accountPb(fee.collector),
    effective_payer_account_id: payers.map(accountPb),
  };
}
