import { describe, expect, it } from 'vitest';
import { addressWord, fromHex, word } from '../../simulator/evm/abi.ts';
import {
  callOf,
  GENESIS,
  hexOf,
  insertBlocks,
  ledgerBlock,
  probeCode,
  SECOND,
  uintOf,
  useEvmLedger,
} from '../../test/harness/evm-session.ts';
import { insertCryptoAllowance } from '../../test/harness/factories-accounts.ts';
import { insertContract } from '../../test/harness/factories-contracts.ts';
import { insertEntity, insertToken, insertTokenAccount } from '../../test/harness/factories-tokens.ts';
import { longZeroAddress } from './addresses.ts';

/** The system contracts as the EVM of a session reaches them: precompiles, and the proxies entities show. */

const OWNER = 1200n;
const SPENDER = 1201n;
const TOKEN = 1300n;
const SCHEDULE = 1400n;
const CODE_SIZE_PROBE = 1500n;
const STATIC_FORWARDER = 1501n;
const CALL_FORWARDER = 1502n;
/** calldatacopy(0, 0, calldatasize); <call>(gas, 0x167, [0,] 0, calldatasize, 0, 0); return the return data. */
const forwarder = (call: 'fa' | 'f1') =>
  Buffer.from(
    `365f5f375f5f365f${call === 'f1' ? '5f' : ''}73${'0'.repeat(36)}0167` + `5a${call}503d5f5f3e3d5ff3`,
    'hex',
  );
const latest = ledgerBlock(3n, GENESIS + 50n * SECOND);

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 10_000n });
  await insertEntity(sql, OWNER, GENESIS, { balance: 10_000n });
  await insertEntity(sql, SPENDER, GENESIS, { balance: 10_000n });
  await insertToken(sql, TOKEN, GENESIS, { name: 'Edge Token' });
  await insertTokenAccount(sql, { account_id: OWNER, token_id: TOKEN, balance: 4_321n });
  await insertCryptoAllowance(sql, { owner: OWNER, spender: SPENDER, amount: 555n });
  await insertEntity(sql, SCHEDULE, GENESIS, { type: 'SCHEDULE' });
  await insertContract(
    sql,
    { id: CODE_SIZE_PROBE, created_timestamp: GENESIS },
    { runtime_bytecode: probeCode(0x3b, true) },
  );
  await insertContract(
    sql,
    { id: STATIC_FORWARDER, created_timestamp: GENESIS },
    { runtime_bytecode: forwarder('fa') },
  );
  await insertContract(sql, { id: CALL_FORWARDER, created_timestamp: GENESIS }, { runtime_bytecode: forwarder('f1') });
});

const run = (...args: Parameters<typeof callOf>) => ledger.session(latest).run(callOf(...args));

/** The ABI string a call returned. */
function abiString(output: Uint8Array): string {
  const length = Number(uintOf(output.subarray(32, 64)));
  return Buffer.from(output.subarray(64, 64 + length)).toString('utf8');
}

describe('system contracts in a session', () => {
  it('answers ERC-20 name() and balanceOf(owner) of a token through its redirect proxy', async () => {
    const name = await run(longZeroAddress(TOKEN), fromHex('06fdde03'));
    expect(abiString(name.output)).toBe('Edge Token');
    const balance = await run(
      longZeroAddress(TOKEN),
      new Uint8Array([...fromHex('70a08231'), ...addressWord(longZeroAddress(OWNER))]),
    );
    expect(uintOf(balance.output)).toBe(4_321n);
  });

  it('shows the proxy as the code of a token (EXTCODESIZE) but no code for an account', async () => {
    const probe = (address: Uint8Array) => run(longZeroAddress(CODE_SIZE_PROBE), addressWord(address));
    expect(uintOf((await probe(longZeroAddress(TOKEN))).output)).toBeGreaterThan(0n);
    expect(uintOf((await probe(longZeroAddress(OWNER))).output)).toBe(0n);
  });

  it('answers hbarAllowance(spender) called on the owner account through the account proxy', async () => {
    const data = new Uint8Array([...fromHex('bbee989e'), ...addressWord(longZeroAddress(SPENDER))]);
    const outcome = await run(longZeroAddress(OWNER), data);
    expect(outcome.ok).toBe(true);
    // (int64 responseCode, int256 amount): SUCCESS (22) and the allowance.
    expect(uintOf(outcome.output.subarray(0, 32))).toBe(22n);
    expect(uintOf(outcome.output.subarray(32, 64))).toBe(555n);
  });

  it.each([
    ['HTS 0x167', '0000000000000000000000000000000000000167'],
    ['the exchange rate 0x168', '0000000000000000000000000000000000000168'],
    ['PRNG 0x169', '0000000000000000000000000000000000000169'],
  ])('answers a call without data to %s with CONTRACT_EXECUTION_EXCEPTION', async (_name, address) => {
    expect(await run(fromHex(address))).toMatchObject({ ok: false, status: 'CONTRACT_EXECUTION_EXCEPTION' });
  });

  it('answers a function a schedule does not have with success and no output, as the node does', async () => {
    expect(await run(longZeroAddress(SCHEDULE), word(1n))).toMatchObject({ ok: true, output: new Uint8Array(0) });
  });

  it('answers decimals() of a token with 2 as a uint256 word', async () => {
    expect(hexOf((await run(longZeroAddress(TOKEN), fromHex('313ce567'))).output)).toBe(`${'0'.repeat(63)}2`);
  });

  it('lets HTS tell a static frame: a failed view reverts there with its status, a plain call gets the code', async () => {
    // getTokenType(address) of an account, not a token.
    const notToken = new Uint8Array([...fromHex('93272baf'), ...addressWord(longZeroAddress(OWNER))]);
    const reverted = await run(longZeroAddress(STATIC_FORWARDER), notToken);
    expect(Buffer.from(reverted.output).toString()).toBe('INVALID_TOKEN_ID');
    const answered = await run(longZeroAddress(CALL_FORWARDER), notToken);
    expect([uintOf(answered.output.subarray(0, 32)), uintOf(answered.output.subarray(32, 64))]).toEqual([167n, 0n]);
  });
});
