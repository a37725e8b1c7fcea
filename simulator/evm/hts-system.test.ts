import { Address } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { longZeroAddress } from '../ledger/ids.ts';
import { Ledger, type LedgerKey } from '../ledger/ledger.ts';
import { addressWord } from './abi.ts';
import { htsCallData } from './hts-functions.ts';
import { htsSystemContract } from './hts-system.ts';

const CONTRACT = 2001n;
const OTHER_CONTRACT = 2002n;
const TREASURY = 2003n;
const HOLDER = 2004n;
const TOKEN = 2010n;

const SUCCESS = 22;
const INVALID_SIGNATURE = 7;
const TOKEN_NOT_ASSOCIATED_TO_ACCOUNT = 184;
const ACCOUNT_FROZEN_FOR_TOKEN = 165;
const SPENDER_DOES_NOT_HAVE_ALLOWANCE = 292;
const AMOUNT_EXCEEDS_ALLOWANCE = 293;
const TOKEN_HAS_NO_SUPPLY_KEY = 180;
const INVALID_TOKEN_ID = 167;
const REVERTED = true;

/** A ledger with two client contracts, a treasury whose key list names the first, a holder, and a token. */
function ledgerWith(supplyKey: LedgerKey | undefined): Ledger {
  const ledger = new Ledger(4);
  const key: LedgerKey = { kind: 'ed25519', publicKey: new Uint8Array(32).fill(7) };
  for (const num of [CONTRACT, OTHER_CONTRACT]) {
    ledger.contracts.set(num, {
      num,
      kind: 'user',
      creator: 2n,
      storage: new Map(),
      erc20Balances: new Map(),
      runtime: new Uint8Array(),
      balance: 0n,
    });
  }
  const fields = { memo: '', evmAddress: undefined, maxAutoAssociations: 0 };
  const treasuryKey: LedgerKey = { kind: 'list', threshold: 1, keys: [key, { kind: 'contract', contract: CONTRACT }] };
  ledger.createAccount(TREASURY, treasuryKey, fields, false);
  ledger.createAccount(HOLDER, key, fields, false);
  ledger.tokens.set(TOKEN, {
    num: TOKEN,
    type: 'FUNGIBLE_COMMON',
    name: 'T',
    symbol: 'T',
    decimals: 0,
    treasury: TREASURY,
    totalSupply: 100n,
    nextSerial: 1n,
    frozen: new Set(),
    settings: supplyKey ? { supplyKey } : {},
  });
  ledger.tokenBalances.set(`${TREASURY}/${TOKEN}`, 100n);
  ledger.tokenBalances.set(`${HOLDER}/${TOKEN}`, 0n);
  return ledger;
}

const token = longZeroAddress(TOKEN);

/** Runs `data` as `caller`'s call inside one frame, which reverts when asked: the call's response code. */
function call(run: ReturnType<typeof htsSystemContract>, caller: bigint, data: Uint8Array, reverted = false): number {
  run.enterFrame();
  const result = run.handler({
    caller: new Address(longZeroAddress(caller)),
    depth: 1,
    data,
    gasLimit: 1_000_000n,
    isStatic: false,
    value: 0n,
  });
  run.leaveFrame(reverted || result.exceptionError !== undefined);
  return Number(BigInt(`0x${Buffer.from(result.returnValue.subarray(0, 32)).toString('hex')}`));
}

describe('the HTS system contract for any calling contract', () => {
  it('mints under a supply key naming the calling contract, and refuses another contract with INVALID_SIGNATURE', () => {
    const ledger = ledgerWith({ kind: 'contract', contract: CONTRACT });
    const run = htsSystemContract(ledger);
    expect(call(run, OTHER_CONTRACT, htsCallData('mintToken', [token, 5n, 0x60n, 0n]))).toBe(INVALID_SIGNATURE);
    expect(call(run, CONTRACT, htsCallData('mintToken', [token, 5n, 0x60n, 0n]))).toBe(SUCCESS);
    expect(ledger.tokens.get(TOKEN)?.totalSupply).toBe(105n);
    expect(run.calls.map((c) => [c.caller, c.status])).toEqual([
      [OTHER_CONTRACT, INVALID_SIGNATURE],
      [CONTRACT, SUCCESS],
    ]);
  });

  it('answers TOKEN_HAS_NO_SUPPLY_KEY for a token without one, and INVALID_TOKEN_ID for no token, with nothing dispatched', () => {
    const run = htsSystemContract(ledgerWith(undefined));
    expect(call(run, CONTRACT, htsCallData('mintToken', [token, 5n, 0x60n, 0n]))).toBe(TOKEN_HAS_NO_SUPPLY_KEY);
    const none = longZeroAddress(9999n);
    expect(call(run, CONTRACT, htsCallData('mintToken', [none, 5n, 0x60n, 0n]))).toBe(INVALID_TOKEN_ID);
    expect(run.calls[1]?.body).toBeUndefined();
  });

  it("moves units of an account whose key list names the contract, and answers SPENDER_DOES_NOT_HAVE_ALLOWANCE for another's", () => {
    const ledger = ledgerWith(undefined);
    const run = htsSystemContract(ledger);
    const send = (from: bigint, to: bigint) =>
      htsCallData('transferToken', [token, longZeroAddress(from), longZeroAddress(to), 10n]);
    expect(call(run, CONTRACT, send(TREASURY, HOLDER))).toBe(SUCCESS);
    expect(call(run, OTHER_CONTRACT, send(TREASURY, HOLDER))).toBe(SPENDER_DOES_NOT_HAVE_ALLOWANCE);
    expect(call(run, CONTRACT, send(TREASURY, OTHER_CONTRACT))).toBe(TOKEN_NOT_ASSOCIATED_TO_ACCOUNT);
    ledger.tokens.get(TOKEN)?.frozen?.add(HOLDER);
    expect(call(run, CONTRACT, send(TREASURY, HOLDER))).toBe(ACCOUNT_FROZEN_FOR_TOKEN);
    expect(ledger.tokenBalance(HOLDER, TOKEN)).toBe(10n);
  });

  it('spends the allowance an account gave the contract, marks the debit approved, and undoes the spend on a revert', () => {
    const ledger = ledgerWith(undefined);
    ledger.tokenBalances.set(`${HOLDER}/${TOKEN}`, 50n);
    ledger.tokenAllowances.set(`${HOLDER}/${CONTRACT}/${TOKEN}`, 40n);
    const run = htsSystemContract(ledger);
    const spend = (amount: bigint) =>
      htsCallData('transferFrom', [token, longZeroAddress(HOLDER), longZeroAddress(TREASURY), amount]);
    expect(call(run, CONTRACT, spend(30n))).toBe(SUCCESS);
    expect(ledger.tokenAllowances.get(`${HOLDER}/${CONTRACT}/${TOKEN}`)).toBe(10n);
    const [list] = (run.calls[0]?.tokens.toPb() ?? []) as { transfers: Record<string, unknown>[] }[];
    const approvals = list?.transfers.map((t) => [
      Number((t.accountID as { accountNum: number }).accountNum),
      Number(t.amount),
      t.is_approval === true,
    ]);
    expect(approvals).toEqual([
      [Number(TREASURY), 30, false],
      [Number(HOLDER), -30, true],
    ]);
    expect(call(run, CONTRACT, spend(30n))).toBe(AMOUNT_EXCEEDS_ALLOWANCE);
    expect(call(run, OTHER_CONTRACT, spend(1n))).toBe(SPENDER_DOES_NOT_HAVE_ALLOWANCE);
    expect(call(run, CONTRACT, spend(10n), REVERTED)).toBe(SUCCESS);
    expect(ledger.tokenAllowances.get(`${HOLDER}/${CONTRACT}/${TOKEN}`)).toBe(10n);
    expect(ledger.tokenBalance(HOLDER, TOKEN)).toBe(20n);
  });

  it('lets a later call see an earlier one, and undoes the calls of a frame that reverts', () => {
    const ledger = ledgerWith({ kind: 'contract', contract: CONTRACT });
    const run = htsSystemContract(ledger);
    const associate = htsCallData('associateToken', [longZeroAddress(CONTRACT), token]);
    run.enterFrame();
    expect(call(run, CONTRACT, associate)).toBe(SUCCESS);
    const toContract = htsCallData('transferToken', [token, longZeroAddress(TREASURY), longZeroAddress(CONTRACT), 40n]);
    expect(call(run, CONTRACT, toContract)).toBe(SUCCESS);
    expect(call(run, CONTRACT, htsCallData('mintToken', [token, 5n, 0x60n, 0n]), REVERTED)).toBe(SUCCESS);
    expect(ledger.tokens.get(TOKEN)?.totalSupply).toBe(100n);
    expect(run.calls.map((c) => c.reverted)).toEqual([false, false, true]);
    run.leaveFrame(REVERTED);
    expect(ledger.isAssociated(CONTRACT, TOKEN)).toBe(false);
    expect(ledger.tokenBalance(TREASURY, TOKEN)).toBe(100n);
    expect(run.calls.every((c) => c.reverted)).toBe(true);
  });

  it('answers views at the view gas, and reverts a failed one in a static frame with the status name', () => {
    const ledger = ledgerWith(undefined);
    ledger.tokens.get(TOKEN)?.frozen?.add(HOLDER);
    const run = htsSystemContract(ledger);
    const view = (signature: string, words: Uint8Array[], isStatic: boolean) =>
      run.handler({
        caller: new Address(longZeroAddress(CONTRACT)),
        depth: 1,
        data: Buffer.concat([keccak_256(new TextEncoder().encode(signature)).subarray(0, 4), ...words]),
        gasLimit: 100_000n,
        isStatic,
        value: 0n,
      });
    const words = (...addresses: bigint[]) => addresses.map((num) => addressWord(longZeroAddress(num)));
    const frozen = view('isFrozen(address,address)', words(TOKEN, HOLDER), true);
    expect(frozen.executionGasUsed).toBe(2_607n);
    expect(Buffer.from(frozen.returnValue).toString('hex')).toBe(
      `${(22).toString(16).padStart(64, '0')}${'0'.repeat(63)}1`,
    );
    const isToken = view('isToken(address)', words(9999n), false);
    expect(Buffer.from(isToken.returnValue).toString('hex')).toBe(
      `${(22).toString(16).padStart(64, '0')}${'0'.repeat(64)}`,
    );
    const missing = view('getTokenType(address)', words(9999n), true);
    expect(missing.exceptionError).toBeDefined();
    expect(new TextDecoder().decode(missing.returnValue)).toBe('INVALID_TOKEN_ID');
    expect(run.calls).toEqual([]);
  });

  it("answers ERC-20 at the token's address: a transfer for the caller with its Transfer event, a failure reverting with the code", () => {
    const ledger = ledgerWith(undefined);
    ledger.tokenBalances.set(`${CONTRACT}/${TOKEN}`, 10n);
    const run = htsSystemContract(ledger);
    const proxy = run.tokenProxy?.(new Address(token));
    if (!proxy) throw new Error('no redirect for the token');
    const erc = (signature: string, words: Uint8Array[]) =>
      proxy({
        caller: new Address(longZeroAddress(CONTRACT)),
        depth: 1,
        data: Buffer.concat([keccak_256(new TextEncoder().encode(signature)).subarray(0, 4), ...words]),
        gasLimit: 1_000_000n,
        isStatic: false,
        value: 0n,
      });
    const to = (num: bigint) => addressWord(longZeroAddress(num));
    const amount = (value: bigint) => Buffer.from(value.toString(16).padStart(64, '0'), 'hex');
    const sent = erc('transfer(address,uint256)', [to(HOLDER), amount(4n)]);
    expect(sent.exceptionError).toBeUndefined();
    expect(Buffer.from(sent.returnValue).toString('hex')).toBe(`${'0'.repeat(63)}1`);
    expect(sent.logs?.[0]?.[0]).toEqual(token);
    expect(ledger.tokenBalance(HOLDER, TOKEN)).toBe(4n);
    const refused = erc('transfer(address,uint256)', [to(OTHER_CONTRACT), amount(1n)]);
    expect(refused.exceptionError).toBeDefined();
    expect(Buffer.from(refused.returnValue).toString('hex')).toBe(
      TOKEN_NOT_ASSOCIATED_TO_ACCOUNT.toString(16).padStart(64, '0'),
    );
    const balance = erc('balanceOf(address)', [to(HOLDER)]);
    expect(Buffer.from(balance.returnValue).toString('hex')).toBe((4).toString(16).padStart(64, '0'));
    expect(run.calls.map((c) => [c.operation, c.status])).toEqual([
      ['transferToken', SUCCESS],
      ['transferToken', TOKEN_NOT_ASSOCIATED_TO_ACCOUNT],
    ]);
  });

  it('undoes everything for a local call, which changes nothing', () => {
    const ledger = ledgerWith({ kind: 'contract', contract: CONTRACT });
    const run = htsSystemContract(ledger);
    expect(call(run, CONTRACT, htsCallData('mintToken', [token, 5n, 0x60n, 0n]))).toBe(SUCCESS);
    run.revert();
    expect(ledger.tokens.get(TOKEN)?.totalSupply).toBe(100n);
    expect(ledger.tokenBalance(TREASURY, TOKEN)).toBe(100n);
  });
});
