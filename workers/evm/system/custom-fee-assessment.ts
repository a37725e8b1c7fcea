/**
 * Custom fee assessment in levels, as the consensus node's CustomFeeAssessmentStep does it over account ids: the
 * transfer is level 0; each level's fixed fees (CustomFixedFeeAssessor), fractional fees (CustomFractionalFeeAssessor)
 * and royalties (CustomRoyaltyFeeAssessor) either change that level's own adjustments (a fee in the units of the token
 * that charges it, a fractional fee taken from the receivers, a royalty taken from the value an NFT's sender gets
 * back) or make the adjustments of the next level (hbar fees, fees in another token, the royalty's credit to its
 * collector), which are assessed in turn, since the fees in another token pay that token's own fees. Level numbers
 * above `tokens.maxCustomFeeDepth` fail with CUSTOM_FEE_CHARGING_EXCEEDED_MAX_RECURSION_DEPTH; more distinct balance
 * changes over all levels than `ledger.xferBalanceChanges.maxLen` with CUSTOM_FEE_CHARGING_EXCEEDED_MAX_ACCOUNT_AMOUNTS.
 * The answer is every level's adjustments (level 0 as changed by its fees); the caller applies them.
 */
import { fail } from './token-dispatch.ts';

type FeeJson = Record<string, unknown>;

/** Account id to amount, in the order the accounts were first adjusted (the node's LinkedHashMap). */
export type Adjustments = Map<bigint, bigint>;

export interface NftMove {
  readonly from: bigint;
  readonly to: bigint;
}

export interface FeeList {
  readonly token: bigint;
  readonly adjusts: Adjustments;
  readonly nfts: readonly NftMove[];
}

/** One level's CryptoTransfer body over account and token ids. */
export interface FeeBody {
  readonly hbar: Adjustments;
  readonly lists: readonly FeeList[];
}

/** What assessment needs of a token (TokenState has it all). */
export interface FeeToken {
  readonly id: bigint;
  readonly fungible: boolean;
  readonly treasury: bigint;
  readonly fixedFees: readonly FeeJson[];
  readonly fractionalFees: readonly FeeJson[];
  readonly royaltyFees: readonly FeeJson[];
}

/** The ledger as assessment sees it; each check fails the transfer with the node's status. */
export interface FeeLedger {
  /** The token of a list, usable (paused permitted): INVALID_TOKEN_ID, TOKEN_WAS_DELETED otherwise. */
  token(id: bigint): Promise<FeeToken>;
  /** CustomFeeAssessor.revalidateAssessmentResult for a next level's hbar debit. */
  checkHbarPayer(account: bigint): Promise<void>;
  /** The same for a next level's debit of `token`. */
  checkTokenPayer(account: bigint, token: bigint): Promise<void>;
}

/** `tokens.maxCustomFeeDepth`. */
export const MAX_CUSTOM_FEE_DEPTH = 2;
/** `ledger.xferBalanceChanges.maxLen`. */
export const MAX_BALANCE_CHANGES = 20;
/** The key of hbar among the token adjustments a level changes (the node's TokenID.DEFAULT). */
const HBAR = 0n;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

const idOf = (value: unknown): bigint | undefined =>
  value === null || value === undefined ? undefined : BigInt(value as string | number);
const amountOf = (value: unknown): bigint => BigInt((value ?? 0) as string | number);

/** `floor(numerator × value / denominator)`, the node's safeFractionMultiply. */
export const fraction = (numerator: bigint, denominator: bigint, value: bigint): bigint =>
  (numerator * value) / denominator;

/** AdjustmentUtils.addExactOrThrow into a map entry. */
function merge(map: Adjustments, account: bigint, amount: bigint): void {
  const sum = (map.get(account) ?? 0n) + amount;
  if (sum < INT64_MIN || sum > INT64_MAX) fail('INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
  map.set(account, sum);
}

function entry<K>(map: Map<K, Adjustments>, key: K): Adjustments {
  let adjustments = map.get(key);
  if (!adjustments) {
    adjustments = new Map();
    map.set(key, adjustments);
  }
  return adjustments;
}

const allFees = (token: FeeToken) => [...token.fixedFees, ...token.fractionalFees, ...token.royaltyFees];

/** CustomFeeExemptions.isPayerExempt. */
export function isPayerExempt(token: FeeToken, fee: FeeJson, payer: bigint): boolean {
  if (payer === token.treasury || payer === idOf(fee.collector_account_id)) return true;
  return fee.all_collectors_are_exempt === true && allFees(token).some((f) => idOf(f.collector_account_id) === payer);
}

/** A fractional fee's amount: the fraction, raised to its minimum and held to its maximum (0: none). */
function bounded(fee: FeeJson, nominal: bigint): { amount: bigint; isMinimum: boolean } {
  const maximum = amountOf(fee.maximum_amount);
  let amount = nominal > amountOf(fee.minimum_amount) ? nominal : amountOf(fee.minimum_amount);
  const isMinimum = amount > nominal;
  if (maximum > 0n && amount > maximum) amount = maximum;
  return { amount, isMinimum };
}

/**
 * Takes `amount` from the credits, each in proportion to its size, then what rounding left from the first ones on
 * (CustomFractionalFeeAssessor.reclaim); answers what could not be taken.
 */
function reclaim(amount: bigint, credits: Adjustments): bigint {
  const available = [...credits.values()].reduce((sum, credit) => sum + credit, 0n);
  const wanted = amount < available ? amount : available;
  let reclaimed = 0n;
  for (const [account, credit] of credits) {
    const here = fraction(credit, available, wanted);
    credits.set(account, credit - here);
    reclaimed += here;
  }
  for (const [account, credit] of credits) {
    if (reclaimed >= wanted) break;
    const here = credit < wanted - reclaimed ? credit : wanted - reclaimed;
    credits.set(account, credit - here);
    reclaimed += here;
  }
  return amount - reclaimed;
}

/** One level's assessment (the node's AssessmentResult). */
class Level {
  /** The level's own fungible adjustments as given, by token. */
  readonly inputTokens = new Map<bigint, Adjustments>();
  readonly inputHbar: Adjustments;
  /** The level's own adjustments as its fees change them, hbar under HBAR. */
  readonly changed = new Map<bigint, Adjustments>();
  readonly nextHbar: Adjustments = new Map();
  readonly nextTokens = new Map<bigint, Adjustments>();
  /** `account/token` pairs that paid a token's royalties in this level: once per account and token. */
  readonly royaltiesPaid = new Set<string>();
  assessed = 0;

  constructor(body: FeeBody) {
    for (const list of body.lists) {
      if (list.adjusts.size === 0) continue;
      this.inputTokens.set(list.token, new Map(list.adjusts));
      this.changed.set(list.token, new Map(list.adjusts));
    }
    this.inputHbar = new Map(body.hbar);
    this.changed.set(HBAR, new Map(body.hbar));
  }
}

class Assessor {
  private readonly ledger: FeeLedger;

  constructor(ledger: FeeLedger) {
    this.ledger = ledger;
  }

  /** CustomFixedFeeAssessor.assessFixedFee: hbar and other tokens go to the next level, the token's own units not. */
  private fixedFee(token: FeeToken, payer: bigint, fee: FeeJson, level: Level): void {
    if (isPayerExempt(token, fee, payer)) return;
    const collector = idOf(fee.collector_account_id) ?? fail('INVALID_CUSTOM_FEE_COLLECTOR');
    const amount = amountOf(fee.amount);
    const denomination = idOf(fee.denominating_token_id);
    const target =
      denomination === undefined
        ? level.nextHbar
        : entry(denomination === token.id ? level.changed : level.nextTokens, denomination);
    merge(target, payer, -amount);
    merge(target, collector, amount);
    level.assessed++;
  }

  private fractionalFees(token: FeeToken, sender: bigint, level: Level): void {
    const input = level.inputTokens.get(token.id) ?? new Map<bigint, bigint>();
    // Called only for a debit of the level's own adjustments: negative.
    const initial = input.get(sender) ?? 0n;
    let unitsLeft = -initial;
    for (const fee of token.fractionalFees) {
      const collector = idOf(fee.collector_account_id) ?? fail('INVALID_CUSTOM_FEE_COLLECTOR');
      // A collector sending the token lets all of it reach the receivers.
      if (sender === collector) continue;
      const payers = [...input].filter(([account, amount]) => amount > 0n && !isPayerExempt(token, fee, account));
      if (payers.length === 0) continue;
      const [numerator, denominator] = [amountOf(fee.numerator), amountOf(fee.denominator)];
      if (fee.net_of_transfers === true) {
        const { amount } = bounded(fee, fraction(numerator, denominator, -initial));
        const asFixed = { ...fee, amount: String(amount), denominating_token_id: String(token.id) };
        this.fixedFee(token, sender, asFixed, level);
        continue;
      }
      const debits = [...input].filter(([account, amount]) => amount < 0n && !isPayerExempt(token, fee, account));
      const totalDebits = debits.reduce((sum, [, amount]) => sum - amount, 0n);
      if (totalDebits === 0n) continue;
      const credits = payers.reduce((sum, [, amount]) => sum + amount, 0n);
      const effective = bounded(fee, fraction(numerator, denominator, credits));
      const assessed = fraction(-initial, totalDebits, effective.amount);
      const changed = entry(level.changed, token.id);
      const remaining: Adjustments = new Map(
        [...changed].filter(([account, amount]) => amount > 0n && !isPayerExempt(token, fee, account)),
      );
      const unreclaimed = reclaim(assessed, remaining);
      if (effective.isMinimum && unreclaimed > 0n) fail('INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
      if (unreclaimed === assessed) continue;
      const collected = assessed - unreclaimed;
      unitsLeft -= collected;
      if (unitsLeft < 0n) fail('INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
      for (const [account, amount] of remaining) changed.set(account, amount);
      merge(changed, collector, collected);
      level.assessed++;
    }
  }

  /**
   * CustomRoyaltyFeeAssessor: each royalty takes its fraction of every fungible credit (hbar or token units) the NFT's
   * sender gets in this level, for its collector in the next; with no such credit the receiver pays the fallback.
   */
  private royaltyFees(token: FeeToken, sender: bigint, receiver: bigint, level: Level): void {
    if (level.royaltiesPaid.has(`${sender}/${token.id}`)) return;
    const exchanged: { denomination: bigint; amount: bigint }[] = [];
    const hbarCredit = level.inputHbar.get(sender) ?? 0n;
    if (hbarCredit > 0n) exchanged.push({ denomination: HBAR, amount: hbarCredit });
    for (const [denomination, adjusts] of level.inputTokens) {
      const credit = adjusts.get(sender) ?? 0n;
      if (credit > 0n) exchanged.push({ denomination, amount: credit });
    }
    for (const fee of token.royaltyFees) {
      const collector = idOf(fee.collector_account_id) ?? fail('INVALID_CUSTOM_FEE_COLLECTOR');
      if (exchanged.length === 0) {
        const fallback = fee.fallback_fee as FeeJson | undefined | null;
        if (!fallback || level.royaltiesPaid.has(`${receiver}/${token.id}`)) continue;
        const asFixed = {
          amount: fallback.amount,
          denominating_token_id: fallback.denominating_token_id,
          collector_account_id: fee.collector_account_id,
          all_collectors_are_exempt: fee.all_collectors_are_exempt,
        };
        this.fixedFee(token, receiver, asFixed, level);
        continue;
      }
      if (isPayerExempt(token, fee, sender)) continue;
      for (const { denomination, amount } of exchanged) {
        const royalty = fraction(amountOf(fee.numerator), amountOf(fee.denominator), amount);
        if (royalty > amount) fail('INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
        merge(entry(level.changed, denomination), sender, -royalty);
        merge(denomination === HBAR ? level.nextHbar : entry(level.nextTokens, denomination), collector, royalty);
        level.assessed++;
      }
    }
    level.royaltiesPaid.add(`${exchanged.length === 0 ? receiver : sender}/${token.id}`);
  }

  /** CustomFeeAssessor.assess for one debit or NFT sent, then revalidateAssessmentResult. */
  private async assess(token: FeeToken, sender: bigint, receiver: bigint | undefined, level: Level): Promise<void> {
    for (const fee of token.fixedFees) {
      if (idOf(fee.collector_account_id) !== sender) this.fixedFee(token, sender, fee, level);
    }
    await this.revalidate(level);
    if (token.fungible) this.fractionalFees(token, sender, level);
    else if (receiver !== undefined) this.royaltyFees(token, sender, receiver, level);
    await this.revalidate(level);
  }

  private async revalidate(level: Level): Promise<void> {
    for (const [account, amount] of level.nextHbar) if (amount < 0n) await this.ledger.checkHbarPayer(account);
    for (const [token, adjusts] of level.nextTokens) {
      for (const [account, amount] of adjusts) if (amount < 0n) await this.ledger.checkTokenPayer(account, token);
    }
  }

  async level(body: FeeBody): Promise<Level> {
    const level = new Level(body);
    for (const list of body.lists) {
      const token = await this.ledger.token(list.token);
      if (allFees(token).length === 0) continue;
      for (const [account, amount] of list.adjusts) {
        // A token's treasury pays none of its fees.
        if (amount < 0n && account !== token.treasury) await this.assess(token, account, undefined, level);
      }
      for (const nft of list.nfts) {
        if (nft.from !== token.treasury) await this.assess(token, nft.from, nft.to, level);
      }
    }
    return level;
  }
}

/** The level's body with its own adjustments as its fees changed them: given order kept, new accounts after. */
function changedBody(body: FeeBody, level: Level): FeeBody {
  const revise = (given: Adjustments, changed: Adjustments | undefined): Adjustments => {
    if (!changed) return given;
    const revised: Adjustments = new Map(
      [...given].map(([account, amount]) => [account, changed.get(account) ?? amount]),
    );
    for (const [account, amount] of changed) if (!revised.has(account)) revised.set(account, amount);
    return revised;
  };
  return {
    hbar: revise(body.hbar, level.changed.get(HBAR)),
    lists: body.lists.map((list) => ({ ...list, adjusts: revise(list.adjusts, level.changed.get(list.token)) })),
  };
}

const nextBody = (level: Level): FeeBody => ({
  hbar: level.nextHbar,
  lists: [...level.nextTokens].map(([token, adjusts]) => ({ token, adjusts, nfts: [] })),
});

/** Distinct hbar accounts, distinct account and token pairs, and NFTs moved, over all levels. */
function balanceChanges(bodies: readonly FeeBody[]): number {
  const hbar = new Set<bigint>();
  const tokens = new Set<string>();
  let nfts = 0;
  for (const body of bodies) {
    for (const account of body.hbar.keys()) hbar.add(account);
    for (const list of body.lists) {
      for (const account of list.adjusts.keys()) tokens.add(`${account}/${list.token}`);
      nfts += list.nfts.length;
    }
  }
  return hbar.size + tokens.size + nfts;
}

export interface FeeAssessment {
  /** Every level's body: level 0 as its fees changed it, then the fees' own levels. */
  readonly bodies: readonly FeeBody[];
  /** How many fees were assessed; none leaves `bodies` the transfer alone. */
  readonly assessed: number;
}

/** CustomFeeAssessmentStep.assessFees over `body`, the transfer. */
export async function assessCustomFees(body: FeeBody, ledger: FeeLedger): Promise<FeeAssessment> {
  const assessor = new Assessor(ledger);
  const bodies: FeeBody[] = [];
  let assessed = 0;
  let current = body;
  for (let depth = 0; ; depth++) {
    if (depth > MAX_CUSTOM_FEE_DEPTH) fail('CUSTOM_FEE_CHARGING_EXCEEDED_MAX_RECURSION_DEPTH');
    const level = await assessor.level(current);
    if (level.assessed === 0) break;
    bodies.push(changedBody(current, level));
    assessed += level.assessed;
    current = nextBody(level);
    if (current.lists.length === 0) break;
  }
  if (current.hbar.size > 0 || current.lists.length > 0) bodies.push(current);
  if (assessed > 0 && balanceChanges(bodies) > MAX_BALANCE_CHANGES) {
    fail('CUSTOM_FEE_CHARGING_EXCEEDED_MAX_ACCOUNT_AMOUNTS');
  }
  return { bodies, assessed };
}
