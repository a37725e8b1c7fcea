/**
 * The HTS system contract functions the simulated network's contracts call (simulator/evm/hts-system.ts answers
 * them): their signatures, call data, and gas as the consensus node's SystemContractGasCalculator derives it from the
 * dispatch's canonical price (hiero-consensus-node `hedera-smart-contract-service-impl`
 * `exec/gas/SystemContractGasCalculator.java`, `exec/systemcontracts/hts/transfer/ClassicTransfersCall.java`;
 * `hapi-fees` `canonical-prices.json`).
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import { concatBytes } from '../../common/concat-bytes.ts';
import { addressWord, word } from './abi.ts';
import {
  CREATE_FUNGIBLE_TOKEN,
  CREATE_GAS,
  CREATE_NON_FUNGIBLE_TOKEN,
  createArguments,
  type TokenCreation,
} from './hts-create.ts';

export const SIGNATURES = {
  associateToken: 'associateToken(address,address)',
  dissociateToken: 'dissociateToken(address,address)',
  transferToken: 'transferToken(address,address,address,int64)',
  transferFrom: 'transferFrom(address,address,address,uint256)',
  transferTokens: 'transferTokens(address,address[],int64[])',
  transferNFT: 'transferNFT(address,address,address,int64)',
  transferNFTs: 'transferNFTs(address,address[],address[],int64[])',
  cryptoTransferV2:
    'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
  approve: 'approve(address,address,uint256)',
  mintToken: 'mintToken(address,int64,bytes[])',
  burnToken: 'burnToken(address,int64,int64[])',
  wipeTokenAccount: 'wipeTokenAccount(address,address,int64)',
  wipeTokenAccountNFT: 'wipeTokenAccountNFT(address,address,int64[])',
  deleteToken: 'deleteToken(address)',
  pauseToken: 'pauseToken(address)',
  unpauseToken: 'unpauseToken(address)',
  freezeToken: 'freezeToken(address,address)',
  unfreezeToken: 'unfreezeToken(address,address)',
  grantTokenKyc: 'grantTokenKyc(address,address)',
  revokeTokenKyc: 'revokeTokenKyc(address,address)',
  createFungibleToken: CREATE_FUNGIBLE_TOKEN,
  createNonFungibleToken: CREATE_NON_FUNGIBLE_TOKEN,
} as const;

export type HtsOperation = keyof typeof SIGNATURES;

/** Canonical prices in tinycents: TokenAssociate, TokenDissociate and CryptoApproveAllowance cost $0.05. */
const ASSOCIATE_TINYCENTS = 500_000_000n;
const APPROVE_TINYCENTS = 500_000_000n;
/**
 * TokenMint and TokenBurn of fungible units, TokenWipeAccount, TokenDelete, TokenPause, TokenUnpause, freezes and KYC
 * changes cost $0.001.
 */
const SUPPLY_OR_PAUSE_TINYCENTS = 10_000_000n;
/** A fungible transfer costs $0.001; a transfer counts half of that per unit adjustment (there are always two). */
const TRANSFER_FUNGIBLE_TINYCENTS = 10_000_000n;
/** An hbar transfer costs $0.0001; a transfer counts half of that per hbar adjustment. */
const TRANSFER_HBAR_TINYCENTS = 1_000_000n;
/** A transfer counts $0.001 per NFT exchanged. */
const TRANSFER_NFT_TINYCENTS = 10_000_000n;
/** TokenMint of NFTs costs $0.02, whatever the number of serials. */
const MINT_NFT_TINYCENTS = 200_000_000n;
/** The child transaction's gas price: $0.000_000_0852 a gas, in fee schedule units (a thousandth of a tinycent). */
const GAS_PRICE_FEE_SCHEDULE_UNITS = 852_000n;

/** The node's `gasRequirementFromTinycents`, its rounding included: the price as gas, plus a fifth. */
export function gasOfTinycents(tinycents: bigint): bigint {
  const gas = ((tinycents + GAS_PRICE_FEE_SCHEDULE_UNITS - 1n) * 1000n) / GAS_PRICE_FEE_SCHEDULE_UNITS;
  return gas + gas / 5n;
}

const selectorOf = (signature: string) => keccak_256(new TextEncoder().encode(signature)).subarray(0, 4);
/** The function a call's selector (hex, no prefix) names. */
export const OPERATIONS = new Map(
  Object.entries(SIGNATURES).map(([op, signature]) => [
    Buffer.from(selectorOf(signature)).toString('hex'),
    op as HtsOperation,
  ]),
);

/** The call data of `operation` with its static arguments: 20-byte addresses and amounts, in the signature's order. */
export function htsCallData(operation: HtsOperation, args: readonly (Uint8Array | bigint)[]): Uint8Array {
  const words = args.map((arg) => (typeof arg === 'bigint' ? word(arg) : addressWord(arg)));
  return Uint8Array.from([...selectorOf(SIGNATURES[operation]), ...words.flatMap((w) => [...w])]);
}

const selectorCall = (operation: HtsOperation, parts: readonly Uint8Array[]) =>
  concatBytes([selectorOf(SIGNATURES[operation]), ...parts]);

/** A dynamic array's ABI tail: its length, then its items' words. */
const arrayTail = (items: readonly Uint8Array[]) => concatBytes([word(BigInt(items.length)), ...items]);

/** A `bytes` value's ABI tail: its length, then its bytes padded to whole words. */
function bytesTail(bytes: Uint8Array): Uint8Array {
  const padded = new Uint8Array(Math.ceil(bytes.length / 32) * 32);
  padded.set(bytes);
  return concatBytes([word(BigInt(bytes.length)), padded]);
}

/** `mintToken(token, 0, metadata)`: one NFT for each metadata (the amount counts fungible units only). */
export function htsMintNftsCallData(token: Uint8Array, metadata: readonly Uint8Array[]): Uint8Array {
  const tails = metadata.map(bytesTail);
  let at = BigInt(32 * tails.length);
  const offsets = tails.map((tail) => {
    const offset = word(at);
    at += BigInt(tail.length);
    return offset;
  });
  return selectorCall('mintToken', [
    addressWord(token),
    word(0n),
    word(0x60n),
    word(BigInt(tails.length)),
    ...offsets,
    ...tails,
  ]);
}

/** `burnToken(token, 0, serials)`: NFTs of the treasury. */
export function htsBurnNftsCallData(token: Uint8Array, serials: readonly bigint[]): Uint8Array {
  return selectorCall('burnToken', [addressWord(token), word(0n), word(0x60n), arrayTail(serials.map(word))]);
}

/** `wipeTokenAccountNFT(token, account, serials)`: NFTs of an account other than the treasury. */
export function htsWipeNftsCallData(token: Uint8Array, account: Uint8Array, serials: readonly bigint[]): Uint8Array {
  return selectorCall('wipeTokenAccountNFT', [
    addressWord(token),
    addressWord(account),
    word(0x60n),
    arrayTail(serials.map(word)),
  ]);
}

/** An int64 (or any signed value) as an ABI word, two's complement over the 256 bits. */
function signedWord(value: bigint): Uint8Array {
  const out = word(BigInt.asUintN(128, value));
  if (value < 0n) out.fill(0xff, 0, 16);
  return out;
}

/** `transferTokens(token, accounts, amounts)`: the i-th account's balance changes by the i-th amount (they sum to 0). */
export function htsTransferTokensCallData(
  token: Uint8Array,
  adjustments: readonly { readonly account: Uint8Array; readonly amount: bigint }[],
): Uint8Array {
  const accounts = arrayTail(adjustments.map((adjustment) => addressWord(adjustment.account)));
  return selectorCall('transferTokens', [
    addressWord(token),
    word(0x60n),
    word(0x60n + BigInt(accounts.length)),
    accounts,
    arrayTail(adjustments.map((adjustment) => signedWord(adjustment.amount))),
  ]);
}

/** `transferNFTs(token, senders, receivers, serials)`: the i-th serial from the i-th sender to the i-th receiver. */
export function htsTransferNftsCallData(
  token: Uint8Array,
  moves: readonly { readonly from: Uint8Array; readonly to: Uint8Array; readonly serial: bigint }[],
): Uint8Array {
  const senders = arrayTail(moves.map((move) => addressWord(move.from)));
  const receivers = arrayTail(moves.map((move) => addressWord(move.to)));
  const head = 32n * 4n;
  return selectorCall('transferNFTs', [
    addressWord(token),
    word(head),
    word(head + BigInt(senders.length)),
    word(head + BigInt(senders.length + receivers.length)),
    senders,
    receivers,
    arrayTail(moves.map((move) => word(move.serial))),
  ]);
}

/** The call data of a `createFungibleToken` or, for an NFT collection, a `createNonFungibleToken`. */
export function htsCreateCallData(token: TokenCreation): Uint8Array {
  const operation = token.type === 'FUNGIBLE_COMMON' ? 'createFungibleToken' : 'createNonFungibleToken';
  return concatBytes([selectorOf(SIGNATURES[operation]), createArguments(token)]);
}

/** The gas of a mint of NFTs, which differs from a mint of fungible units (`HTS_GAS.mintToken`). */
export const MINT_NFT_GAS = gasOfTinycents(MINT_NFT_TINYCENTS);

/** The gas of a transfer of fungible units adjusting `count` balances (no custom fees). */
export const unitTransferGas = (count: number): bigint =>
  gasOfTinycents(BigInt(count) * (TRANSFER_FUNGIBLE_TINYCENTS / 2n));

/** The gas of a `cryptoTransfer` of `hbar` hbar adjustments and `units` unit adjustments, priced together. */
export const cryptoTransferGas = (hbar: number, units: number): bigint =>
  gasOfTinycents(BigInt(hbar) * (TRANSFER_HBAR_TINYCENTS / 2n) + BigInt(units) * (TRANSFER_FUNGIBLE_TINYCENTS / 2n));

/** The gas of a transfer of `count` NFTs (no custom fees). */
export const nftTransferGas = (count: number): bigint => gasOfTinycents(BigInt(count) * TRANSFER_NFT_TINYCENTS);

/**
 * The gas of each function: its dispatch's canonical price as gas (NFT mints and transfers as above). The node charges
 * the larger of that price and the synthetic body's fee under file 0.0.111; this network's 0.0.111
 * (network/fee-schedule.ts) prices every subtype these dispatches use at their canonical price, as constants, so the
 * fee never exceeds it and the canonical price stands. Associations and approvals are charged the canonical price, as
 * the mirror charges them (docs/evm-system-contracts.md, differences).
 */
export const HTS_GAS: Record<HtsOperation, bigint> = {
  associateToken: gasOfTinycents(ASSOCIATE_TINYCENTS),
  dissociateToken: gasOfTinycents(ASSOCIATE_TINYCENTS),
  transferToken: gasOfTinycents(2n * (TRANSFER_FUNGIBLE_TINYCENTS / 2n)),
  transferFrom: gasOfTinycents(2n * (TRANSFER_FUNGIBLE_TINYCENTS / 2n)),
  transferTokens: unitTransferGas(2),
  transferNFT: nftTransferGas(1),
  transferNFTs: nftTransferGas(1),
  cryptoTransferV2: cryptoTransferGas(2, 0),
  approve: gasOfTinycents(APPROVE_TINYCENTS),
  mintToken: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  burnToken: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  wipeTokenAccount: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  wipeTokenAccountNFT: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  deleteToken: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  pauseToken: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  unpauseToken: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  freezeToken: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  unfreezeToken: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  grantTokenKyc: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  revokeTokenKyc: gasOfTinycents(SUPPLY_OR_PAUSE_TINYCENTS),
  createFungibleToken: CREATE_GAS,
  createNonFungibleToken: CREATE_GAS,
};

/** An account's change in a `cryptoTransfer`: its address and signed amount. */
export interface AccountAdjustment {
  readonly account: Uint8Array;
  readonly amount: bigint;
}

/** AccountAmount[] with no approvals: address, amount and a false `isApproval` per item. */
const accountAmountsTail = (adjustments: readonly AccountAdjustment[]) =>
  arrayTail(adjustments.map((a) => concatBytes([addressWord(a.account), signedWord(a.amount), word(0n)])));

/**
 * `cryptoTransfer(transferList, tokenTransfers)` (the second version, with approval flags, all false): hbar
 * adjustments, and for each token its unit adjustments (no NFTs).
 */
export function htsCryptoTransferCallData(
  hbar: readonly AccountAdjustment[],
  tokens: readonly { readonly token: Uint8Array; readonly adjustments: readonly AccountAdjustment[] }[],
): Uint8Array {
  // TransferList is a tuple holding one dynamic array: its encoding is that array's offset, then the array.
  const transferList = concatBytes([word(32n), accountAmountsTail(hbar)]);
  const lists = tokens.map(({ token, adjustments }) => {
    const amounts = accountAmountsTail(adjustments);
    return concatBytes([addressWord(token), word(96n), word(BigInt(96 + amounts.length)), amounts, word(0n)]);
  });
  let at = BigInt(32 * lists.length);
  const offsets = lists.map((list) => {
    const offset = word(at);
    at += BigInt(list.length);
    return offset;
  });
  const tokenTransfers = concatBytes([word(BigInt(lists.length)), ...offsets, ...lists]);
  return selectorCall('cryptoTransferV2', [
    word(64n),
    word(BigInt(64 + transferList.length)),
    transferList,
    tokenTransfers,
  ]);
}
