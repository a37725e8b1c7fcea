/**
 * HIP-904 airdrops in a call: `airdropTokens`, `cancelAirdrops` and `claimAirdrops` on HTS 0x167 and, through a
 * token's proxy, HRC-904 `cancelAirdropFT/NFT` and `claimAirdropFT/NFT` (AirdropTranslator, TokenAirdropHandler,
 * AirdropHandlerHelper, TokenCancelAirdropHandler, TokenClaimAirdropHandler), each answering its response code. The
 * sender pays the custom fees of the whole airdrop first (custom-fees.ts), then an airdrop to a receiver that is
 * associated, or has a free automatic association slot, is a transfer; to one without, or one whose signature it
 * needs and lacks, it becomes a pending airdrop of the run, for which the call's sender pays an airdrop fee in hbar;
 * a claim turns it into an association and a transfer and a cancellation removes it. Accounts are named as the
 * node's debit conversion names them (synthetic-ids.ts): a receiver that names no account is sent its tokens in the
 * transfer, where an EVM address gets a hollow account (unlimited automatic associations, so the tokens arrive) and
 * a long-zero or the zero address fails with INVALID_ACCOUNT_ID; a receiver numbered at most 1000 halts the call, as
 * the decoder rejects it.
 */
import type { ExecResult } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import type { AirdropKey } from '../../../db/queries/evm-system-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import type { EvmEntity } from '../types.ts';
import { type AbiArgs, AbiDecodeError, selectorOf } from './abi.ts';
import { partiesOf, signs } from './call-parties.ts';
import { type Adjust, dispatchTransfer, newRelationship, type TokenTransferList } from './crypto-transfer.ts';
import { prepayAirdropFees } from './custom-fees.ts';
import { accountAt, type HtsCall, type HtsFunction, tokenAt } from './hts-context.ts';
import { CANONICAL_TINYCENTS } from './hts-gas.ts';
import { ledgerReads } from './ledger-reads.ts';
import { debitNumber, requireTransferAccount, transferAccount } from './synthetic-ids.ts';
import { adjustTokenBalance, dispatch, fail, fixed, usableToken } from './token-dispatch.ts';
import type { TokenState } from './token-state.ts';
import { tokenListsOf } from './token-transfer-lists.ts';

const UNLIMITED = -1;
/** The airdrop fee of one receiver, $0.05 (TokenAirdropHandler: a pending airdrop costs it and an association's). */
const AIRDROP_FEE_TINYCENTS = 500_000_000n;
/** `tokens.maxAllowedPendingAirdropsToClaim` and `…ToCancel`. */
const MAX_PENDING_IDS = 10;
/** TokenAirdropDecoder.LAST_RESERVED_SYSTEM_ACCOUNT: no receiver numbered at most this. */
const LAST_RESERVED_SYSTEM_ACCOUNT = 1000n;

/** TokenAirdropDecoder.checkForSystemAccount, run as the call is decoded: its failure halts the call. */
async function screenSystemReceivers(call: HtsCall, lists: readonly TokenTransferList[]): Promise<void> {
  for (const list of lists) {
    const receivers = [
      ...list.adjusts.filter((adjust) => adjust.amount > 0n).map((adjust) => adjust.account),
      ...list.nfts.map((nft) => nft.to),
    ];
    for (const receiver of receivers) {
      const num = await debitNumber(call, receiver);
      if (num !== undefined && num <= LAST_RESERVED_SYSTEM_ACCOUNT) {
        throw new AbiDecodeError('INVALID_RECEIVING_NODE_ACCOUNT');
      }
    }
  }
}

/** AirdropHandlerHelper.isPendingAirdrop: the receiver's signature is needed and missing, or it has no slot left. */
async function goesPending(call: HtsCall, receiver: EvmEntity, token: TokenState): Promise<boolean> {
  if (receiver.receiverSigRequired && !(await signs(call, receiver))) return true;
  if ((await call.tokens.relationship(receiver.id, token.id))?.associated) return false;
  const slots = call.tokens.maxAutoAssociations(receiver);
  return slots !== UNLIMITED && (await call.tokens.usedAutoAssociations(receiver.id)) >= slots;
}

/** The sender's key must sign (airdrops take no allowances), and it must hold what it sends. */
async function checkSender(call: HtsCall, sender: EvmEntity, token: TokenState, amount: bigint): Promise<void> {
  if (!(await signs(call, sender))) fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
  const row = await call.tokens.relationshipToWrite(sender.id, token);
  if (!row?.associated) fail('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
  if (token.fungible && BigInt(row?.balance ?? '0') < amount) fail('INSUFFICIENT_TOKEN_BALANCE');
}

/** The TokenAirdropValidator's pure checks: lists given, one debit per fungible list, no allowances. */
function checkBody(lists: readonly TokenTransferList[]): void {
  if (lists.length === 0) fail('EMPTY_TOKEN_TRANSFER_BODY');
  for (const list of lists) {
    if (list.adjusts.length > 0 && list.adjusts.filter((adjust) => adjust.amount < 0n).length !== 1) {
      fail('INVALID_TRANSACTION_BODY');
    }
    if (list.adjusts.some((adjust) => adjust.approval) || list.nfts.some((nft) => nft.approval)) fail('NOT_SUPPORTED');
  }
}

/**
 * The hbar its payer (the call's sender) pays for an airdrop list (TokenAirdropHandler.chargeAirdropFee): the airdrop
 * fee and an association's for each new pending airdrop, the airdrop fee alone for one adding to a pending airdrop,
 * and for each transfer to a receiver not yet associated (its association is charged by the transfer).
 */
async function chargeAirdropFee(call: HtsCall, counts: { pending: number; existing: number; associating: number }) {
  const { pending, existing, associating } = counts;
  const airdrop = AIRDROP_FEE_TINYCENTS;
  const tinycents =
    (airdrop + CANONICAL_TINYCENTS.ASSOCIATE) * BigInt(pending - existing) + airdrop * BigInt(existing + associating);
  if (tinycents === 0n) return;
  const rate = await ledgerReads(call.reader).exchangeRate();
  const tinybars = (tinycents * rate.hbarEquiv) / rate.centEquiv;
  const payer = (await partiesOf(call)).sender ?? fail('INSUFFICIENT_PAYER_BALANCE');
  const address = new Address(call.reader.canonicalAddress(payer));
  const account = await call.evm.stateManager.getAccount(address);
  if (!account || account.balance < tinybars) return fail('INSUFFICIENT_PAYER_BALANCE');
  account.balance -= tinybars;
  await call.evm.journal.putAccount(address, account);
}

async function airdrop(call: HtsCall, given: readonly TokenTransferList[]): Promise<undefined> {
  checkBody(given);
  // TokenAirdropValidator.validateSemantics, before any fee is charged.
  for (const list of given) {
    const token = usableToken(await tokenAt(call, list.token));
    const debit = list.adjusts.find((adjust) => adjust.amount < 0n);
    if (debit) await checkSender(call, await requireTransferAccount(call, debit.account), token, -debit.amount);
    for (const nft of list.nfts) {
      const sender = await requireTransferAccount(call, nft.from);
      await checkSender(call, sender, token, 0n);
      const owned = await call.tokens.nft(token.id, nft.serial);
      const owner = owned && (owned.account_id === null ? token.treasury : BigInt(owned.account_id));
      if (owner !== sender.id) fail('SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
    }
  }
  const lists = await prepayAirdropFees(call, given);
  const transfers: TokenTransferList[] = [];
  for (const list of lists) {
    const token = usableToken(await tokenAt(call, list.token));
    const adjusts: Adjust[] = [];
    const debit = list.adjusts.find((adjust) => adjust.amount < 0n);
    if (debit) {
      const sender = await requireTransferAccount(call, debit.account);
      const counts = { pending: 0, existing: 0, associating: 0 };
      const pendings: { key: AirdropKey; amount: bigint }[] = [];
      let sent = 0n;
      for (const credit of list.adjusts.filter((adjust) => adjust.amount > 0n)) {
        const receiver = await transferAccount(call, credit.account);
        if (receiver && (await goesPending(call, receiver, token))) {
          const key = { sender: sender.id, receiver: receiver.id, tokenId: token.id, serial: 0n };
          counts.pending++;
          if ((await call.tokens.pendingAirdrop(key)) !== undefined) counts.existing++;
          pendings.push({ key, amount: credit.amount });
        } else {
          if (!receiver || !(await call.tokens.relationship(receiver.id, token.id))?.associated) counts.associating++;
          adjusts.push(credit);
          sent += credit.amount;
        }
      }
      await chargeAirdropFee(call, counts);
      for (const { key, amount } of pendings) {
        call.tokens.putPendingAirdrop(key, ((await call.tokens.pendingAirdrop(key)) ?? 0n) + amount);
      }
      if (sent > 0n) adjusts.unshift({ account: debit.account, amount: -sent, approval: false });
    }
    const nfts = [];
    const counts = { pending: 0, existing: 0, associating: 0 };
    const pendings: AirdropKey[] = [];
    for (const nft of list.nfts) {
      const [sender, receiver] = [await requireTransferAccount(call, nft.from), await transferAccount(call, nft.to)];
      if (receiver && (await goesPending(call, receiver, token))) {
        counts.pending++;
        pendings.push({ sender: sender.id, receiver: receiver.id, tokenId: token.id, serial: nft.serial });
      } else {
        if (!receiver || !(await call.tokens.relationship(receiver.id, token.id))?.associated) counts.associating++;
        nfts.push(nft);
      }
    }
    if (list.nfts.length > 0) await chargeAirdropFee(call, counts);
    for (const key of pendings) {
      if ((await call.tokens.pendingAirdrop(key)) !== undefined) fail('PENDING_NFT_AIRDROP_ALREADY_EXISTS');
      call.tokens.putPendingAirdrop(key, 0n);
    }
    if (adjusts.length > 0 || nfts.length > 0) transfers.push({ token: list.token, adjusts, nfts });
  }
  if (transfers.length > 0) {
    const { status } = await dispatchTransfer(call, { hbar: [], tokens: transfers }, false, {
      feesPrepaid: true,
      missingLongZero: 'number',
    });
    if (status !== 'SUCCESS')
      fail(status === 'INVALID_SIGNATURE' ? 'INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE' : status);
  }
  return undefined;
}

/** A PendingAirdrop struct (sender, receiver, token, serial); the token's type decides whether the serial counts. */
interface PendingInput {
  readonly sender: Uint8Array;
  readonly receiver: Uint8Array;
  readonly token: Uint8Array;
  readonly serial: bigint;
}

function pendingInputs(args: AbiArgs): PendingInput[] {
  const list = args.array(0);
  if (list.length > MAX_PENDING_IDS) throw new AbiDecodeError('PENDING_AIRDROP_ID_LIST_TOO_LONG');
  return Array.from({ length: list.length }, (_, i) => ({
    sender: list.items.address(i * 4),
    receiver: list.items.address(i * 4 + 1),
    token: list.items.address(i * 4 + 2),
    serial: list.items.int(i * 4 + 3, 64),
  }));
}

interface Pending {
  readonly key: AirdropKey;
  readonly sender: EvmEntity;
  readonly receiver: EvmEntity;
  readonly token: TokenState;
  readonly amount: bigint;
}

/** The pending airdrops named, each existing, none repeated; `signer` says who must sign each. */
async function pendingOf(
  call: HtsCall,
  inputs: readonly PendingInput[],
  signer: 'sender' | 'receiver',
): Promise<Pending[]> {
  if (inputs.length === 0) fail('EMPTY_PENDING_AIRDROP_ID_LIST');
  const seen = new Set<string>();
  const pending: Pending[] = [];
  for (const input of inputs) {
    const token = await tokenAt(call, input.token);
    const sender = await accountAt(call, input.sender);
    const receiver = await accountAt(call, input.receiver);
    if (!token || !sender || !receiver) return fail('INVALID_PENDING_AIRDROP_ID');
    const key = {
      sender: sender.id,
      receiver: receiver.id,
      tokenId: token.id,
      serial: token.fungible ? 0n : input.serial,
    };
    const id = `${key.sender}/${key.receiver}/${key.tokenId}/${key.serial}`;
    if (seen.has(id)) fail('PENDING_AIRDROP_ID_REPEATED');
    seen.add(id);
    if (!(await signs(call, signer === 'sender' ? sender : receiver))) {
      fail('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
    }
    const amount = await call.tokens.pendingAirdrop(key);
    if (amount === undefined) fail('INVALID_PENDING_AIRDROP_ID');
    pending.push({ key, sender, receiver, token, amount: amount ?? 0n });
  }
  return pending;
}

async function cancel(call: HtsCall, inputs: readonly PendingInput[]): Promise<undefined> {
  for (const { key } of await pendingOf(call, inputs, 'sender')) call.tokens.putPendingAirdrop(key, undefined);
  return undefined;
}

async function claim(call: HtsCall, inputs: readonly PendingInput[]): Promise<undefined> {
  for (const { key, sender, receiver, token, amount } of await pendingOf(call, inputs, 'receiver')) {
    usableToken(token);
    if (!(await call.tokens.relationship(receiver.id, token.id))?.associated) {
      call.tokens.putRelationship(receiver.id, token.id, newRelationship(token, true));
    }
    if (token.fungible) {
      await adjustTokenBalance(call, sender.id, token, -amount);
      await adjustTokenBalance(call, receiver.id, token, amount);
    } else {
      const nft = await call.tokens.nft(token.id, key.serial);
      const owner = nft && (nft.account_id === null ? token.treasury : BigInt(nft.account_id));
      if (!nft || owner !== sender.id) return fail('SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
      await adjustTokenBalance(call, sender.id, token, -1n);
      await adjustTokenBalance(call, receiver.id, token, 1n);
      call.tokens.putNft(token.id, key.serial, { ...nft, account_id: String(receiver.id), spender: null });
    }
    call.tokens.putPendingAirdrop(key, undefined);
  }
  return undefined;
}

const PENDING = '(address,address,address,int64)[]';

export const AIRDROP_FUNCTIONS: [string, HtsFunction][] = [
  [
    'airdropTokens((address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
    async (call) => {
      const lists = tokenListsOf(call.args.array(0), true);
      await screenSystemReceivers(call, lists);
      return dispatch(fixed('TOKEN_AIRDROP'), (c) => airdrop(c, lists))(call);
    },
  ],
  [
    `cancelAirdrops(${PENDING})`,
    (call) => {
      const inputs = pendingInputs(call.args);
      return dispatch(fixed('TOKEN_CANCEL_AIRDROP'), (c) => cancel(c, inputs))(call);
    },
  ],
  [
    `claimAirdrops(${PENDING})`,
    (call) => {
      const inputs = pendingInputs(call.args);
      return dispatch(fixed('TOKEN_CLAIM_AIRDROP'), (c) => claim(c, inputs))(call);
    },
  ],
];

type RedirectWrite = (call: HtsCall, token: TokenState) => Promise<ExecResult>;

/** One pending airdrop of the proxied token between the caller and the account in argument 0. */
const oneWith = (call: HtsCall, token: TokenState, callerIs: 'sender' | 'receiver', serial: bigint): PendingInput => {
  const other = call.args.address(0);
  const tokenAddress = longZeroAddress(token.id);
  return callerIs === 'sender'
    ? { sender: call.sender, receiver: other, token: tokenAddress, serial }
    : { sender: other, receiver: call.sender, token: tokenAddress, serial };
};

/** HRC-904 cancellations and claims through a token's proxy, for the proxy's caller. */
export const AIRDROP_REDIRECTS: ReadonlyMap<number, RedirectWrite> = new Map<number, RedirectWrite>([
  [
    selectorOf('cancelAirdropFT(address)'),
    (call, token) => dispatch(fixed('TOKEN_CANCEL_AIRDROP'), (c) => cancel(c, [oneWith(c, token, 'sender', 0n)]))(call),
  ],
  [
    selectorOf('cancelAirdropNFT(address,int64)'),
    (call, token) =>
      dispatch(fixed('TOKEN_CANCEL_AIRDROP'), (c) => cancel(c, [oneWith(c, token, 'sender', c.args.int(1, 64))]))(call),
  ],
  [
    selectorOf('claimAirdropFT(address)'),
    (call, token) => dispatch(fixed('TOKEN_CLAIM_AIRDROP'), (c) => claim(c, [oneWith(c, token, 'receiver', 0n)]))(call),
  ],
  [
    selectorOf('claimAirdropNFT(address,int64)'),
    (call, token) =>
      dispatch(fixed('TOKEN_CLAIM_AIRDROP'), (c) => claim(c, [oneWith(c, token, 'receiver', c.args.int(1, 64))]))(call),
  ],
]);
