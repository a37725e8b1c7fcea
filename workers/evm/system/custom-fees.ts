/**
 * The fixed custom fees a CryptoTransfer charges (CustomFixedFeeAssessor, CustomFeeExemptions) and the fallback of a
 * royalty fee (CustomRoyaltyFeeAssessor): each account a list debits, or that sends an NFT, pays every fixed fee of
 * the token to its collector, in hbar or in the denominating token; the receiver of an NFT for which its sender gets
 * no fungible value in the same transfer pays each royalty fee's fallback. The token's treasury, the fee's collector
 * and, for a fee exempting all collectors, any collector of the token pay nothing. A payer short of the fee fails
 * with INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE; nothing is charged of a transfer that fails.
 */
import { Address } from '@ethereumjs/util';
import { hexOfBytes } from '../../../db/bytea.ts';
import type { EvmEntity } from '../types.ts';
import type { CryptoTransfer, TokenTransferList } from './crypto-transfer.ts';
import { type HtsCall, tokenAt } from './hts-context.ts';
import { existingAccount, fail } from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';

type FeeJson = Record<string, unknown>;

/** A change of an account's hbar balance in the EVM's state. */
export interface HbarChange {
  readonly address: Address;
  readonly amount: bigint;
}

const FROZEN = 1;
const KYC_GRANTED = 1;

const idOf = (value: unknown): bigint | undefined =>
  value === null || value === undefined ? undefined : BigInt(value as string | number);

function collectors(token: TokenState): bigint[] {
  return [...token.fixedFees, ...token.fractionalFees, ...token.royaltyFees].flatMap((fee) => {
    const id = idOf(fee.collector_account_id);
    return id === undefined ? [] : [id];
  });
}

/** CustomFeeExemptions.isPayerExempt. */
function exempt(token: TokenState, fee: FeeJson, payer: bigint): boolean {
  if (payer === token.treasury || payer === idOf(fee.collector_account_id)) return true;
  return fee.all_collectors_are_exempt === true && collectors(token).includes(payer);
}

class FeeCharges {
  private readonly call: HtsCall;
  /** Hbar each address pays (negative) or collects, applied once every fee has been checked. */
  private readonly hbar = new Map<string, HbarChange>();

  constructor(call: HtsCall) {
    this.call = call;
  }

  private async hbarBalance(account: EvmEntity): Promise<{ address: Address; balance: bigint }> {
    const address = new Address(this.call.reader.canonicalAddress(account));
    const pending = this.hbar.get(address.toString())?.amount ?? 0n;
    return { address, balance: ((await this.call.evm.stateManager.getAccount(address))?.balance ?? 0n) + pending };
  }

  addHbar(address: Address, amount: bigint): void {
    const entry = this.hbar.get(address.toString()) ?? { address, amount: 0n };
    this.hbar.set(address.toString(), { address, amount: entry.amount + amount });
  }

  async adjustToken(accountId: bigint, token: TokenState, amount: bigint): Promise<void> {
    const row = await this.call.tokens.relationshipToWrite(accountId, token);
    if (!row?.associated) return fail('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
    if (row.freeze_status === FROZEN) fail('ACCOUNT_FROZEN_FOR_TOKEN');
    if (token.hasKycKey && row.kyc_status !== KYC_GRANTED) fail('ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN');
    const balance = BigInt(row.balance) + amount;
    if (balance < 0n) fail('INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
    this.call.tokens.putRelationship(accountId, token.id, { ...row, balance: String(balance) });
  }

  /** One fixed fee (a top-level one, or a royalty's fallback) of `token` paid by `payer`. */
  async charge(token: TokenState, fee: FeeJson, payer: EvmEntity): Promise<void> {
    if (exempt(token, fee, payer.id)) return;
    const amount = BigInt(fee.amount as string | number);
    const collectorId = idOf(fee.collector_account_id) ?? fail('INVALID_CUSTOM_FEE_COLLECTOR');
    const collector = (await this.call.reader.entityById(collectorId)) ?? fail('INVALID_CUSTOM_FEE_COLLECTOR');
    const denomination = idOf(fee.denominating_token_id);
    if (denomination === undefined) {
      const paying = await this.hbarBalance(payer);
      if (paying.balance < amount) fail('INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
      this.addHbar(paying.address, -amount);
      this.addHbar((await this.hbarBalance(collector)).address, amount);
      return;
    }
    const feeToken = (await this.call.tokens.token(denomination)) ?? fail('INVALID_TOKEN_ID_IN_CUSTOM_FEES');
    await this.adjustToken(payer.id, feeToken, -amount);
    await this.adjustToken(collector.id, feeToken, amount);
  }

  /** The royalty fallbacks an NFT's receiver pays when its sender gets nothing fungible back. */
  async fallbacks(token: TokenState, receiver: EvmEntity): Promise<void> {
    for (const royalty of token.royaltyFees) {
      const fallback = royalty.fallback_fee as FeeJson | undefined;
      if (!fallback) continue;
      if ((await this.hbarBalance(receiver)).balance === 0n) fail('INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
      const fee = {
        ...fallback,
        collector_account_id: royalty.collector_account_id,
        all_collectors_are_exempt: royalty.all_collectors_are_exempt,
      };
      await this.charge(token, fee, receiver);
    }
  }

  async apply(): Promise<void> {
    const { evm } = this.call;
    for (const { address, amount } of this.hbar.values()) {
      const account = await evm.stateManager.getAccount(address);
      if (!account) continue;
      account.balance += amount;
      await evm.journal.putAccount(address, account);
    }
  }
}

/** Accounts the transfer credits with something fungible: hbar, or units of any token. */
function fungibleReceivers(transfer: CryptoTransfer): Set<string> {
  const credited = [...transfer.hbar, ...transfer.tokens.flatMap((list) => list.adjusts)];
  return new Set(credited.filter((adjust) => adjust.amount > 0n).map((adjust) => hexOfBytes(adjust.account)));
}

/** `floor(value × numerator / denominator)`, as the node's safeFractionMultiply. */
const fraction = (numerator: bigint, denominator: bigint, value: bigint): bigint => (numerator * value) / denominator;

/** A fractional fee's amount: the fraction, raised to its minimum and held to its maximum (0: none). */
function bounded(fee: FeeJson, nominal: bigint): { amount: bigint; isMinimum: boolean } {
  const minimum = BigInt(fee.minimum_amount as string | number);
  const maximum = BigInt(fee.maximum_amount as string | number);
  let amount = nominal > minimum ? nominal : minimum;
  const isMinimum = amount > nominal;
  if (maximum > 0n && amount > maximum) amount = maximum;
  return { amount, isMinimum };
}

/**
 * Takes `amount` from the credits, each in proportion to its size, then what rounding left from the first ones on
 * (CustomFractionalFeeAssessor.reclaim); answers what could not be taken.
 */
function reclaim(amount: bigint, credits: Map<bigint, bigint>): bigint {
  const available = [...credits.values()].reduce((sum, credit) => sum + credit, 0n);
  const wanted = amount < available ? amount : available;
  let reclaimed = 0n;
  for (const [account, credit] of credits) {
    const here = available === 0n ? 0n : fraction(credit, available, wanted);
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

/**
 * The fractional fees of a fungible list (CustomFractionalFeeAssessor): net of transfers, the sender pays the fee on
 * top of what it sends; otherwise the fee is taken back from the non-exempt receivers' credits, in proportion to
 * this sender's share of the non-exempt debits.
 */
async function chargeFractional(call: HtsCall, charges: FeeCharges, token: TokenState, list: TokenTransferList) {
  const credits = new Map<bigint, bigint>();
  const debits: { account: EvmEntity; amount: bigint }[] = [];
  for (const adjust of list.adjusts) {
    const account = await existingAccount(call, adjust.account);
    if (adjust.amount > 0n) credits.set(account.id, adjust.amount);
    else if (adjust.amount < 0n) debits.push({ account, amount: -adjust.amount });
  }
  const remaining = new Map(credits);
  for (const { account: sender, amount: debit } of debits) {
    if (sender.id === token.treasury) continue;
    let unitsLeft = debit;
    for (const fee of token.fractionalFees) {
      const collector = idOf(fee.collector_account_id);
      if (collector === undefined || sender.id === collector) continue;
      const payers = [...credits].filter(([id]) => !exempt(token, fee, id));
      if (payers.length === 0) continue;
      const [numerator, denominator] = [BigInt(fee.numerator as string), BigInt(fee.denominator as string)];
      if (fee.net_of_transfers === true) {
        const { amount } = bounded(fee, fraction(numerator, denominator, debit));
        const fixedFee = { ...fee, amount: String(amount), denominating_token_id: String(token.id) };
        await charges.charge(token, fixedFee, sender);
        continue;
      }
      const totalDebits = debits.filter((d) => !exempt(token, fee, d.account.id)).reduce((n, d) => n + d.amount, 0n);
      if (totalDebits === 0n) continue;
      const nonExemptCredits = payers.reduce((sum, [, credit]) => sum + credit, 0n);
      const effective = bounded(fee, fraction(numerator, denominator, nonExemptCredits));
      const assessed = fraction(debit, totalDebits, effective.amount);
      const reducible = new Map([...remaining].filter(([id, credit]) => credit > 0n && !exempt(token, fee, id)));
      const unreclaimed = reclaim(assessed, reducible);
      if (effective.isMinimum && unreclaimed > 0n) fail('INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
      if (unreclaimed === assessed) continue;
      const collected = assessed - unreclaimed;
      unitsLeft -= collected;
      if (unitsLeft < 0n) fail('INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE');
      for (const [id, credit] of reducible) {
        await charges.adjustToken(id, token, credit - (remaining.get(id) ?? 0n));
        remaining.set(id, credit);
      }
      await charges.adjustToken(collector, token, collected);
      remaining.set(collector, (remaining.get(collector) ?? 0n) + collected);
    }
  }
}

/**
 * Charges the transfer's custom fees once its own moves have been checked, then applies its hbar changes and the
 * fees' together: a fee that fails leaves no hbar moved. A token's treasury sending pays none.
 */
export async function chargeCustomFees(call: HtsCall, transfer: CryptoTransfer, hbar: HbarChange[]): Promise<void> {
  const charges = new FeeCharges(call);
  for (const { address, amount } of hbar) charges.addHbar(address, amount);
  const paid = fungibleReceivers(transfer);
  for (const list of transfer.tokens) {
    const token = await tokenAt(call, list.token);
    if (!token) continue;
    const payers = [
      ...list.adjusts.filter((adjust) => adjust.amount < 0n).map((adjust) => adjust.account),
      ...list.nfts.map((nft) => nft.from),
    ];
    for (const address of payers) {
      const payer = await existingAccount(call, address);
      if (payer.id === token.treasury) continue;
      for (const fee of token.fixedFees) await charges.charge(token, fee, payer);
    }
    if (token.fungible && token.fractionalFees.length > 0) await chargeFractional(call, charges, token, list);
    for (const nft of list.nfts) {
      const sender = await existingAccount(call, nft.from);
      if (sender.id === token.treasury || paid.has(hexOfBytes(nft.from))) continue;
      await charges.fallbacks(token, await existingAccount(call, nft.to));
    }
  }
  await charges.apply();
}
