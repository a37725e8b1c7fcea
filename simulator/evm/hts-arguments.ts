/**
 * The arguments of the HTS system contract's classic functions (hts-functions.ts), read from a call's data against
 * the ledger model: words, arrays, `bytes[]`, and the accounts address arguments name. An argument that names no
 * token or no account ends the call with the node's response code (`CallFailure`), before anything is dispatched.
 */
import { numOfLongZero } from '../ledger/ids.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { readUint } from './abi.ts';
import type { HtsOperation } from './hts-functions.ts';

export const INVALID_ACCOUNT_ID = 15;
export const INVALID_TOKEN_ID = 167;

/** A call the node refuses before it dispatches anything: its answer is the response code alone. */
export class CallFailure extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

export const argWord = (data: Uint8Array, index: number) => data.subarray(4 + 32 * index, 36 + 32 * index);
export const argNum = (data: Uint8Array, index: number) => numOfLongZero(argWord(data, index).subarray(12)) ?? 0n;

/** The words of the dynamic array argument at `index`. */
export function arrayArg(data: Uint8Array, index: number): Uint8Array[] {
  const args = data.subarray(4);
  const at = Number(readUint(argWord(data, index)));
  const length = Number(readUint(args.subarray(at, at + 32)));
  return Array.from({ length }, (_, i) => args.subarray(at + 32 + 32 * i, at + 64 + 32 * i));
}

/** The items of the `bytes[]` argument at `index` (each item's offset counts from the first offset word). */
export function bytesListArg(data: Uint8Array, index: number): Uint8Array[] {
  const args = data.subarray(4);
  const base = Number(readUint(argWord(data, index))) + 32;
  return arrayArg(data, index).map((offset) => {
    const at = base + Number(readUint(offset));
    return args.slice(at + 32, at + 32 + Number(readUint(args.subarray(at, at + 32))));
  });
}

/**
 * The account an address names: an account's or a contract's canonical address (its EVM address when it has one,
 * else long-zero). The node takes the long-zero address of an account with an EVM address for no account.
 */
export function accountOf(ledger: Ledger, address: Uint8Array): bigint {
  const num = ledger.entityOfAddress(address);
  const exists = num !== undefined && (ledger.accounts.has(num) || ledger.contracts.has(num));
  if (!exists || !Buffer.from(ledger.canonicalAddress(num)).equals(address)) {
    throw new CallFailure(INVALID_ACCOUNT_ID, `0x${Buffer.from(address).toString('hex')} is no account`);
  }
  return num;
}

export function accountArg(ledger: Ledger, data: Uint8Array, index: number): bigint {
  return accountOf(ledger, argWord(data, index).subarray(12));
}

/** The balance changes of a transferTokens call: its accounts and its (signed) amounts, pairwise. */
export function unitAdjustmentsArg(ledger: Ledger, data: Uint8Array) {
  const amounts = arrayArg(data, 2);
  return arrayArg(data, 1).map((account, i) => ({
    account: accountOf(ledger, account.subarray(12)),
    amount: BigInt.asIntN(64, readUint(amounts[i] ?? new Uint8Array(32))),
  }));
}

/** The NFT moves of a transferNFT or transferNFTs call: token, then sender, receiver and serial of each. */
export function nftMovesArg(ledger: Ledger, operation: HtsOperation, data: Uint8Array) {
  const token = argNum(data, 0);
  if (operation === 'transferNFT') {
    const move = {
      from: accountArg(ledger, data, 1),
      to: accountArg(ledger, data, 2),
      serial: readUint(argWord(data, 3)),
    };
    return { token, moves: [move] };
  }
  const [senders, receivers, serials] = [1, 2, 3].map((index) => arrayArg(data, index));
  const moves = (serials ?? []).map((serial, i) => ({
    from: accountOf(ledger, senders?.[i]?.subarray(12) ?? new Uint8Array(20)),
    to: accountOf(ledger, receivers?.[i]?.subarray(12) ?? new Uint8Array(20)),
    serial: readUint(serial),
  }));
  return { token, moves };
}

/** The hbar and unit adjustments of a `cryptoTransfer` (v2) call (its NFT exchanges are not read). */
export function cryptoTransferArg(ledger: Ledger, data: Uint8Array) {
  const args = data.subarray(4);
  const wordAt = (at: number) => args.subarray(at, at + 32);
  const offsetAt = (at: number) => Number(readUint(wordAt(at)));
  // An AccountAmount[] at `at`: its length, then (address, int64 amount, bool isApproval) per item.
  const adjustmentsAt = (at: number) =>
    Array.from({ length: offsetAt(at) }, (_, i) => ({
      account: accountOf(ledger, wordAt(at + 32 + 96 * i).subarray(12)),
      amount: BigInt.asIntN(64, readUint(wordAt(at + 64 + 96 * i))),
    }));
  const transferList = offsetAt(0);
  const hbar = adjustmentsAt(transferList + offsetAt(transferList));
  const lists = offsetAt(32);
  const tokens = Array.from({ length: offsetAt(lists) }, (_, i) => {
    const list = lists + 32 + offsetAt(lists + 32 + 32 * i);
    return {
      token: numOfLongZero(wordAt(list).subarray(12)) ?? 0n,
      adjustments: adjustmentsAt(list + offsetAt(list + 32)),
    };
  });
  return { hbar, tokens };
}
