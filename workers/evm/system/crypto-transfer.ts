/**
 * A synthetic CryptoTransfer dispatched by a system contract, checked and applied as the consensus node's
 * CryptoTransferHandler does it, all or nothing: the body's own rules first (zero sums, repeated accounts, serials),
 * then what its pre-handling checks (each token and each debited account exists), the hollow accounts of credited
 * addresses that name no account (hollow-accounts.ts, synthetic-ids.ts), the tokens (not deleted, not paused), the
 * accounts, who authorizes each debit (the sender itself, an
 * allowance to the sender, or the account's key), associations (made automatically for a receiver with free
 * automatic association slots), freezes, KYC and balances, then the custom fees (custom-fees.ts). Hbar moves in the
 * EVM's own account state.
 */
import { Address } from '@ethereumjs/util';
import { hexOfBytes } from '../../../db/bytea.ts';
import type { TokenRelationshipRow } from '../../../db/queries/evm-system-tokens.ts';
import type { EvmEntity } from '../types.ts';
import { isSystemAccount, partiesOf } from './call-parties.ts';
import { applyHbarChanges, chargeCustomFees, type HbarChange } from './custom-fees.ts';
import { entityNumbersOf } from './frames.ts';
import { aliasCredits, createHollowAccounts, lazyCreationCount, type MissingLongZero } from './hollow-accounts.ts';
import { type HtsCall, tokenAt } from './hts-context.ts';
import { keySatisfied } from './key-checks.ts';
import type { ResponseCodeName } from './results.ts';
import { requireTransferAccount } from './synthetic-ids.ts';
import { DispatchFailure, fail } from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';

export interface Adjust {
  readonly account: Uint8Array;
  readonly amount: bigint;
  /** The debit uses the owner's allowance to the sender. */
  readonly approval: boolean;
}

export interface NftExchange {
  readonly from: Uint8Array;
  readonly to: Uint8Array;
  readonly serial: bigint;
  readonly approval: boolean;
}

export interface TokenTransferList {
  readonly token: Uint8Array;
  readonly adjusts: readonly Adjust[];
  readonly nfts: readonly NftExchange[];
}

export interface CryptoTransfer {
  readonly hbar: readonly Adjust[];
  readonly tokens: readonly TokenTransferList[];
}

export interface TransferOutcome {
  readonly status: ResponseCodeName;
  /** Receivers associated automatically (each costs an association's gas on top). */
  readonly autoAssociations: number;
  /** Credited EVM addresses that named no account before the dispatch: each is priced as a lazy creation. */
  readonly lazyCreations: number;
}

const FROZEN = 1;
const UNFROZEN = 2;
const NOT_APPLICABLE = 0;
const KYC_GRANTED = 1;
const KYC_REVOKED = 2;
const UNLIMITED_AUTO_ASSOCIATIONS = -1;

/** The body's own rules (CryptoTransferHandler.pureChecks). */
function checkBody(transfer: CryptoTransfer): void {
  const hbarAccounts = new Set<string>();
  let hbarSum = 0n;
  for (const adjust of transfer.hbar) {
    if (hbarAccounts.has(hexOfBytes(adjust.account))) fail('ACCOUNT_REPEATED_IN_ACCOUNT_AMOUNTS');
    hbarAccounts.add(hexOfBytes(adjust.account));
    hbarSum += adjust.amount;
  }
  if (hbarSum !== 0n) fail('INVALID_ACCOUNT_AMOUNTS');
  const tokens = new Set<string>();
  for (const list of transfer.tokens) {
    if (tokens.has(hexOfBytes(list.token))) fail('TOKEN_ID_REPEATED_IN_TOKEN_LIST');
    tokens.add(hexOfBytes(list.token));
    if (list.adjusts.length === 0 && list.nfts.length === 0) fail('EMPTY_TOKEN_TRANSFER_ACCOUNT_AMOUNTS');
    const accounts = new Set<string>();
    let sum = 0n;
    for (const adjust of list.adjusts) {
      if (accounts.has(hexOfBytes(adjust.account))) fail('ACCOUNT_REPEATED_IN_ACCOUNT_AMOUNTS');
      accounts.add(hexOfBytes(adjust.account));
      sum += adjust.amount;
    }
    if (sum !== 0n) fail('TRANSFERS_NOT_ZERO_SUM_FOR_TOKEN');
    for (const nft of list.nfts) {
      if (nft.serial <= 0n) fail('INVALID_TOKEN_NFT_SERIAL_NUMBER');
      if (hexOfBytes(nft.from) === hexOfBytes(nft.to)) fail('ACCOUNT_REPEATED_IN_ACCOUNT_AMOUNTS');
    }
  }
}

class TransferRun {
  private readonly call: HtsCall;
  private readonly switchToApprovals: boolean;
  private readonly feesPrepaid: boolean;
  private sender: EvmEntity | undefined;
  autoAssociations = 0;

  constructor(call: HtsCall, switchToApprovals: boolean, feesPrepaid: boolean) {
    this.call = call;
    this.switchToApprovals = switchToApprovals;
    this.feesPrepaid = feesPrepaid;
  }

  /**
   * Whether the sender may debit `owner` without an allowance: it is the sender, or its key is active. A debit the
   * sender may not make is, for the legacy calls, retried as a debit of the owner's allowance (ApprovalSwitchHelper).
   */
  private async authorizes(owner: EvmEntity, approval: boolean): Promise<boolean> {
    if (approval) return false;
    if (owner.id === this.sender?.id) return true;
    const { signers } = await partiesOf(this.call);
    if (keySatisfied(owner.key, signers)) return true;
    if (this.switchToApprovals) return false;
    return fail('INVALID_SIGNATURE');
  }

  private async checkReceiver(receiver: EvmEntity): Promise<void> {
    if (!receiver.receiverSigRequired || receiver.id === this.sender?.id) return;
    const { signers } = await partiesOf(this.call);
    if (!keySatisfied(receiver.key, signers)) fail('INVALID_SIGNATURE');
  }

  private async token(address: Uint8Array): Promise<TokenState> {
    const token = await tokenAt(this.call, address);
    if (!token) return fail('INVALID_TOKEN_ID');
    if (token.deleted) fail('TOKEN_WAS_DELETED');
    if (token.paused) fail('TOKEN_IS_PAUSED');
    return token;
  }

  /** The relationship a transfer may use: associated (automatically for a receiver that allows it), not frozen, KYC. */
  private async relationship(account: EvmEntity, token: TokenState, credit: boolean): Promise<TokenRelationshipRow> {
    const { tokens } = this.call;
    let row = await tokens.relationshipToWrite(account.id, token);
    if (!row?.associated) {
      const slots = tokens.maxAutoAssociations(account);
      if (!credit || slots === 0) return fail('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
      if (slots !== UNLIMITED_AUTO_ASSOCIATIONS && (await tokens.usedAutoAssociations(account.id)) >= slots) {
        fail('NO_REMAINING_AUTOMATIC_ASSOCIATIONS');
      }
      row = newRelationship(token, true);
      tokens.putRelationship(account.id, token.id, row);
      tokens.noteAutoAssociation(account.id);
      this.autoAssociations++;
    }
    if (row.freeze_status === FROZEN) fail('ACCOUNT_FROZEN_FOR_TOKEN');
    if (token.hasKycKey && row.kyc_status !== KYC_GRANTED) fail('ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN');
    return row;
  }

  private async move(account: EvmEntity, token: TokenState, amount: bigint): Promise<void> {
    const row = await this.relationship(account, token, amount > 0n);
    const balance = BigInt(row.balance) + amount;
    if (balance < 0n) fail('INSUFFICIENT_TOKEN_BALANCE');
    this.call.tokens.putRelationship(account.id, token.id, { ...row, balance: String(balance) });
  }

  private async fungible(token: TokenState, adjusts: readonly Adjust[]): Promise<void> {
    if (!token.fungible) fail('ACCOUNT_AMOUNT_TRANSFERS_ONLY_ALLOWED_FOR_FUNGIBLE_COMMON');
    const { tokens } = this.call;
    // Every account's relationship is settled (associated, automatically where it may be) before any balance or
    // allowance is looked at, as the node's AssociateTokenRecipientsStep runs before its adjustments.
    for (const adjust of adjusts) {
      await this.relationship(await requireTransferAccount(this.call, adjust.account), token, adjust.amount > 0n);
    }
    // Debits first, as the consensus node adjusts them: a receiver's new balance never funds a debit.
    const ordered = [...adjusts].sort((a, b) => (a.amount < b.amount ? -1 : a.amount > b.amount ? 1 : 0));
    for (const adjust of ordered) {
      const account = await requireTransferAccount(this.call, adjust.account);
      if (adjust.amount < 0n && !(await this.authorizes(account, adjust.approval))) {
        const spender = this.sender?.id ?? 0n;
        const allowance = await tokens.tokenAllowance(account.id, spender, token.id);
        if (allowance === 0n) fail('SPENDER_DOES_NOT_HAVE_ALLOWANCE');
        if (allowance < -adjust.amount) fail('AMOUNT_EXCEEDS_ALLOWANCE');
        tokens.putTokenAllowance(account.id, spender, token.id, allowance + adjust.amount);
      }
      if (adjust.amount > 0n) await this.checkReceiver(account);
      await this.move(account, token, adjust.amount);
    }
  }

  private async nfts(token: TokenState, exchanges: readonly NftExchange[]): Promise<void> {
    if (token.fungible) fail('INVALID_NFT_ID');
    const { tokens } = this.call;
    for (const exchange of exchanges) {
      const [from, to] = [
        await requireTransferAccount(this.call, exchange.from),
        await requireTransferAccount(this.call, exchange.to),
      ];
      const nft = await tokens.nft(token.id, exchange.serial);
      if (!nft) return fail('INVALID_NFT_ID');
      const owner = nft.account_id === null ? token.treasury : BigInt(nft.account_id);
      if (owner !== from.id) fail('SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
      if (!(await this.authorizes(from, exchange.approval))) {
        const spender = this.sender?.id;
        const approved =
          spender !== undefined &&
          (nft.spender === String(spender) || (await tokens.approvedForAll(from.id, spender, token.id)));
        if (!approved) fail('SPENDER_DOES_NOT_HAVE_ALLOWANCE');
      }
      await this.checkReceiver(to);
      await this.move(from, token, -1n);
      await this.move(to, token, 1n);
      tokens.putNft(token.id, exchange.serial, { ...nft, account_id: String(to.id), spender: null });
    }
  }

  /** Checks the hbar adjustments; answers the balance changes, applied with the custom fees' (custom-fees.ts). */
  private async hbar(adjusts: readonly Adjust[]): Promise<HbarChange[]> {
    const { call } = this;
    const state = call.evm.stateManager;
    const changes: HbarChange[] = [];
    for (const adjust of adjusts) {
      const account = await requireTransferAccount(this.call, adjust.account);
      if (adjust.amount < 0n && !(await this.authorizes(account, adjust.approval))) {
        const spender = this.sender?.id ?? 0n;
        const allowance = await call.tokens.cryptoAllowance(account.id, spender);
        if (allowance === 0n) fail('SPENDER_DOES_NOT_HAVE_ALLOWANCE');
        if (allowance < -adjust.amount) fail('AMOUNT_EXCEEDS_ALLOWANCE');
        call.tokens.putCryptoAllowance(account.id, spender, allowance + adjust.amount);
      }
      if (adjust.amount > 0n) await this.checkReceiver(account);
      const address = new Address(call.reader.canonicalAddress(account));
      const balance = (await state.getAccount(address))?.balance ?? 0n;
      if (balance + adjust.amount < 0n) fail('INSUFFICIENT_ACCOUNT_BALANCE');
      changes.push({ address, amount: adjust.amount });
    }
    return changes;
  }

  /**
   * What the node checks before handling the transfer (TransferExecutor.preHandle): each token exists and each
   * debited account, or NFT sender, is one.
   */
  private async preHandle(transfer: CryptoTransfer): Promise<void> {
    for (const list of transfer.tokens) {
      if (!(await tokenAt(this.call, list.token))) fail('INVALID_TOKEN_ID');
      for (const adjust of list.adjusts)
        if (adjust.amount < 0n) await requireTransferAccount(this.call, adjust.account);
      for (const nft of list.nfts) await requireTransferAccount(this.call, nft.from);
    }
    for (const adjust of transfer.hbar) if (adjust.amount < 0n) await requireTransferAccount(this.call, adjust.account);
  }

  async run(transfer: CryptoTransfer, aliases: readonly Uint8Array[], missingLongZero: MissingLongZero): Promise<void> {
    checkBody(transfer);
    await this.preHandle(transfer);
    await createHollowAccounts(this.call, aliases, missingLongZero);
    this.sender = (await partiesOf(this.call)).sender;
    for (const list of transfer.tokens) {
      const token = await this.token(list.token);
      if (list.adjusts.length > 0) await this.fungible(token, list.adjusts);
      if (list.nfts.length > 0) await this.nfts(token, list.nfts);
    }
    const hbar = await this.hbar(transfer.hbar);
    if (this.feesPrepaid) await applyHbarChanges(this.call, hbar);
    else await chargeCustomFees(this.call, transfer, hbar, aliases);
  }
}

/** A fresh relationship as TokenAssociate makes it: frozen when the token freezes by default, KYC not granted. */
export function newRelationship(token: TokenState, associated: boolean): TokenRelationshipRow {
  const hasFreezeKey = token.keyBytes[2] !== undefined;
  return {
    associated,
    balance: '0',
    freeze_status: hasFreezeKey ? (token.freezeDefault ? FROZEN : UNFROZEN) : NOT_APPLICABLE,
    kyc_status: token.hasKycKey ? (token.kycGrantedByDefault ? KYC_GRANTED : KYC_REVOKED) : NOT_APPLICABLE,
  };
}

/**
 * Checks and applies `transfer` for the call's sender. `switchToApprovals`: the legacy calls' retry of debits the
 * sender may not make as debits of allowances; `feesPrepaid`: its custom fees were charged before (an airdrop's);
 * `missingLongZero`: how a credited long-zero address that names no account is named (hollow-accounts.ts). On a
 * failure nothing of it stays applied.
 */
export async function dispatchTransfer(
  call: HtsCall,
  transfer: CryptoTransfer,
  switchToApprovals: boolean,
  options: { readonly feesPrepaid?: boolean; readonly missingLongZero?: MissingLongZero } = {},
): Promise<TransferOutcome> {
  const aliases = await aliasCredits(call, transfer);
  const lazyCreations = lazyCreationCount(call, aliases);
  // A hollow account takes an entity number; a failed transfer gives it back, as its savepoint does in the node.
  const numbers = lazyCreations > 0 ? await entityNumbersOf(call.evm) : undefined;
  const run = new TransferRun(call, switchToApprovals, options.feesPrepaid ?? false);
  call.tokens.checkpoint();
  numbers?.checkpoint();
  try {
    await run.run(transfer, aliases, options.missingLongZero ?? 'alias');
  } catch (error) {
    call.tokens.revert();
    numbers?.revert();
    if (error instanceof DispatchFailure) return { status: error.status, autoAssociations: 0, lazyCreations };
    throw error;
  }
  call.tokens.commit();
  numbers?.commit();
  return { status: 'SUCCESS', autoAssociations: run.autoAssociations, lazyCreations };
}

/**
 * Whether the transfer credits hbar or units to, or sends an NFT to, a system account (0.0.1–0.0.750), named by its
 * number or by a long-zero alias alike: the classic calls revert such a transfer before dispatching it
 * (SystemAccountCreditScreen).
 */
export function creditsSystemAccount(call: HtsCall, transfer: CryptoTransfer): boolean {
  const credited = [
    ...transfer.hbar.filter((adjust) => adjust.amount > 0n).map((adjust) => adjust.account),
    ...transfer.tokens.flatMap((list) => [
      ...list.adjusts.filter((adjust) => adjust.amount > 0n).map((adjust) => adjust.account),
      ...list.nfts.map((nft) => nft.to),
    ]),
  ];
  return credited.some((address) => isSystemAccount(call, address));
}

/** Whether any token of the transfer charges custom fees (the transfer is priced higher). */
export async function hasCustomFees(call: HtsCall, transfer: CryptoTransfer): Promise<boolean> {
  for (const list of transfer.tokens) {
    const token = await tokenAt(call, list.token);
    if (token && token.fixedFees.length + token.fractionalFees.length + token.royaltyFees.length > 0) return true;
  }
  return false;
}
