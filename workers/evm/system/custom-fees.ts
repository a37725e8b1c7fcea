/**
 * The custom fees a CryptoTransfer charges, once its own moves are checked and applied: the fees are assessed in
 * levels as the consensus node does it (custom-fee-assessment.ts), then every level's change is applied over the
 * transfer, all or nothing. Token changes need an associated, unfrozen, KYC-granted relationship (collectors too);
 * a payer the token changes leave short fails with INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE, and so does a
 * payer the hbar changes leave short: the transfer's hbar and the fees' hbar are applied together, after every check.
 * An account the transfer itself creates (a hollow account) pays no fee: the node's autoCreationTest fails it.
 */
import { Address } from '@ethereumjs/util';
import { hexOfBytes } from '../../../db/bytea.ts';
import { longZeroAddress } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import type { CryptoTransfer, TokenTransferList } from './crypto-transfer.ts';
import { type Adjustments, assessCustomFees, type FeeBody, type FeeLedger } from './custom-fee-assessment.ts';
import { accountAt, type HtsCall, tokenAt } from './hts-context.ts';
import { transferAccount } from './synthetic-ids.ts';
import { existingAccount, fail } from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';

/** A change of an account's hbar balance in the EVM's state. */
export interface HbarChange {
  readonly address: Address;
  readonly amount: bigint;
}

const FROZEN = 1;
const KYC_GRANTED = 1;
const SHORT = 'INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE';

/** The run's view of accounts and tokens for assessment, with the accounts the transfer created. */
class RunLedger implements FeeLedger {
  private readonly call: HtsCall;
  private readonly created: ReadonlySet<bigint>;

  constructor(call: HtsCall, created: ReadonlySet<bigint>) {
    this.call = call;
    this.created = created;
  }

  async token(id: bigint): Promise<TokenState> {
    const token = await this.call.tokens.token(id);
    if (!token) return fail('INVALID_TOKEN_ID');
    if (token.deleted) fail('TOKEN_WAS_DELETED');
    return token;
  }

  async checkHbarPayer(account: bigint): Promise<void> {
    if (this.created.has(account)) fail(SHORT);
  }

  async checkTokenPayer(account: bigint, token: bigint): Promise<void> {
    if (this.created.has(account)) fail(SHORT);
    const row = await this.call.tokens.relationshipToWrite(account, await this.token(token));
    if (!row?.associated) fail('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
  }

  async entity(id: bigint): Promise<EvmEntity | undefined> {
    return this.call.tokens.createdAccount(id) ?? (await this.call.reader.entityById(id));
  }
}

/** The transfer over account and token ids, as assessment takes it; `idOf` names each account. */
async function bodyOf(
  call: HtsCall,
  transfer: CryptoTransfer,
  idOf = async (address: Uint8Array) => (await existingAccount(call, address)).id,
): Promise<FeeBody> {
  const hbar: Adjustments = new Map();
  for (const adjust of transfer.hbar) hbar.set(await idOf(adjust.account), adjust.amount);
  const lists = [];
  for (const list of transfer.tokens) {
    const token = (await tokenAt(call, list.token)) ?? fail('INVALID_TOKEN_ID');
    const adjusts: Adjustments = new Map();
    for (const adjust of list.adjusts) adjusts.set(await idOf(adjust.account), adjust.amount);
    const nfts = [];
    for (const nft of list.nfts) nfts.push({ from: await idOf(nft.from), to: await idOf(nft.to) });
    lists.push({ token: token.id, adjusts, nfts });
  }
  return { hbar, lists };
}

interface Changes {
  readonly hbar: Adjustments;
  readonly tokens: readonly { token: bigint; adjusts: Adjustments }[];
}

/** The balance changes of `bodies`, less `given` from the first (the transfer the fees changed, already applied). */
function changesOf(bodies: readonly FeeBody[], given?: FeeBody): Changes {
  const hbar: Adjustments = new Map();
  const tokens: { token: bigint; adjusts: Adjustments }[] = [];
  const add = (into: Adjustments, account: bigint, amount: bigint) =>
    into.set(account, (into.get(account) ?? 0n) + amount);
  bodies.forEach((body, level) => {
    const before = level === 0 ? given : undefined;
    for (const [account, amount] of body.hbar) add(hbar, account, amount);
    for (const [account, amount] of before?.hbar ?? []) add(hbar, account, -amount);
    body.lists.forEach((list, index) => {
      const adjusts: Adjustments = new Map(list.adjusts);
      for (const [account, amount] of before?.lists[index]?.adjusts ?? []) add(adjusts, account, -amount);
      tokens.push({ token: list.token, adjusts });
    });
  });
  return { hbar, tokens };
}

async function adjustToken(call: HtsCall, account: bigint, token: TokenState, amount: bigint): Promise<void> {
  if (token.paused) fail('TOKEN_IS_PAUSED');
  const row = await call.tokens.relationshipToWrite(account, token);
  if (!row?.associated) return fail('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
  if (row.freeze_status === FROZEN) fail('ACCOUNT_FROZEN_FOR_TOKEN');
  if (token.hasKycKey && row.kyc_status !== KYC_GRANTED) fail('ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN');
  const balance = BigInt(row.balance) + amount;
  if (balance < 0n) fail(SHORT);
  call.tokens.putRelationship(account, token.id, { ...row, balance: String(balance) });
}

/** Hbar changes by address: the transfer's own, then the fees'; each account's total must leave it solvent. */
async function applyHbar(call: HtsCall, ledger: RunLedger, own: readonly HbarChange[], fees: Adjustments) {
  const total = new Map<string, HbarChange>();
  const add = (address: Address, amount: bigint) => {
    const key = address.toString();
    total.set(key, { address, amount: (total.get(key)?.amount ?? 0n) + amount });
  };
  for (const { address, amount } of own) add(address, amount);
  for (const [id, amount] of fees) {
    if (amount === 0n) continue;
    const entity = (await ledger.entity(id)) ?? fail('INVALID_CUSTOM_FEE_COLLECTOR');
    add(new Address(call.reader.canonicalAddress(entity)), amount);
  }
  const { evm } = call;
  const accounts = [];
  for (const { address, amount } of total.values()) {
    const account = await evm.stateManager.getAccount(address);
    if (!account) continue;
    if (account.balance + amount < 0n) fail(SHORT);
    accounts.push({ address, account, amount });
  }
  for (const { address, account, amount } of accounts) {
    account.balance += amount;
    await evm.journal.putAccount(address, account);
  }
}

/** Applies the token changes, then the hbar ones with the transfer's own. */
async function apply(call: HtsCall, ledger: RunLedger, own: readonly HbarChange[], changes: Changes): Promise<void> {
  for (const { token: id, adjusts } of changes.tokens) {
    const token = await ledger.token(id);
    for (const [account, amount] of adjusts) if (amount !== 0n) await adjustToken(call, account, token, amount);
  }
  await applyHbar(call, ledger, own, changes.hbar);
}

/**
 * An airdrop's transfer over ids, the address of each id, and the ids of receivers that name no account yet (the
 * transfer creates them): each of those stands under an id below zero, which no entity has, and pays no fee.
 */
async function airdropBody(call: HtsCall, transfer: CryptoTransfer) {
  const addresses = new Map<bigint, Uint8Array>();
  const ids = new Map<string, bigint>();
  const created = new Set<bigint>();
  const idOf = async (address: Uint8Array): Promise<bigint> => {
    const key = hexOfBytes(address);
    const known = ids.get(key);
    if (known !== undefined) return known;
    const account = await transferAccount(call, address);
    const id = account?.id ?? -BigInt(created.size + 1);
    if (!account) created.add(id);
    ids.set(key, id);
    addresses.set(id, address);
    return id;
  };
  return { body: await bodyOf(call, transfer, idOf), addresses, created };
}

/**
 * Charges the transfer's custom fees, then applies its hbar changes and the fees' together: a fee that fails leaves no
 * hbar moved. `created`: the addresses of the accounts the transfer created.
 */
export async function chargeCustomFees(
  call: HtsCall,
  transfer: CryptoTransfer,
  hbar: readonly HbarChange[],
  created: readonly Uint8Array[],
): Promise<void> {
  const createdIds = new Set<bigint>();
  for (const address of created) {
    const account = await accountAt(call, address);
    if (account) createdIds.add(account.id);
  }
  const ledger = new RunLedger(call, createdIds);
  const body = await bodyOf(call, transfer);
  const { bodies, assessed } = await assessCustomFees(body, ledger);
  await apply(call, ledger, hbar, assessed === 0 ? { hbar: new Map(), tokens: [] } : changesOf(bodies, body));
}

/** Applies a transfer's hbar changes when its custom fees were paid before it (an airdrop's). */
export async function applyHbarChanges(call: HtsCall, hbar: readonly HbarChange[]): Promise<void> {
  await applyHbar(call, new RunLedger(call, new Set()), hbar, new Map());
}

/**
 * An airdrop's custom fees, paid before anything is sent or kept pending (TransferExecutor.chargeCustomFeeForAirdrops):
 * assessed over all its lists as if every credit were transferred, the levels after the first are applied at once;
 * the answer is the lists as the fees change them (a fee in the token's own units becomes the collector's credit, a
 * fractional fee not net of transfers lowers the receivers'), which the airdrop then moves or keeps pending.
 */
export async function prepayAirdropFees(
  call: HtsCall,
  lists: readonly TokenTransferList[],
): Promise<readonly TokenTransferList[]> {
  const { body, addresses, created } = await airdropBody(call, { hbar: [], tokens: lists });
  const ledger = new RunLedger(call, created);
  const { bodies, assessed } = await assessCustomFees(body, ledger);
  const [first] = bodies;
  if (assessed === 0 || !first) return lists;
  await apply(call, ledger, [], changesOf(bodies.slice(1)));
  return lists.map((list, index) => ({
    token: list.token,
    adjusts: [...(first.lists[index]?.adjusts ?? [])].map(([id, amount]) => ({
      account: addresses.get(id) ?? longZeroAddress(id),
      amount,
      approval: false,
    })),
    nfts: list.nfts,
  }));
}
