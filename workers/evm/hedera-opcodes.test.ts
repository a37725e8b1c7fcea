import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { fromHex } from '../../simulator/evm/abi.ts';
import {
  callOf,
  GENESIS,
  hexOf,
  insertBlocks,
  ledgerBlock,
  probeCode,
  SECOND,
  TESTNET_SETTINGS,
  uintOf,
  useEvmLedger,
} from '../../test/harness/evm-session.ts';
import { insertContract } from '../../test/harness/factories-contracts.ts';
import { word32 } from '../../test/harness/factories-evm.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { longZeroAddress } from './addresses.ts';
import type { BlockContext, CallTransaction } from './types.ts';

const TREASURY = 2n;
const ACCOUNT = 1500n;
const ALIASED_ACCOUNT = 1501n;
const ALIASED_CONTRACT = 1502n;
const TOKEN = 1503n;
/** Contracts that SELFDESTRUCT to the treasury 0.0.2, ACCOUNT (1500 = 0x5dc), a missing 999,999 and TOKEN (0x5df). */
const SELF_DESTRUCTS = {
  system: [3001n, '6002ff'],
  account: [3002n, '6105dcff'],
  missing: [3003n, '620f423fff'],
  token: [3004n, '6105dfff'],
} as const;
const CONTRACT_EVM_ADDRESS = fromHex('5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a');
const ACCOUNT_EVM_ADDRESS = fromHex('7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e7e');
/** Probe contracts are numbered 2000 + opcode. */
const probe = (opcode: number) => longZeroAddress(2000n + BigInt(opcode));
const OPCODES = { ADDRESS: 0x30, BALANCE: 0x31, CALLER: 0x33, EXTCODESIZE: 0x3b, EXTCODEHASH: 0x3f, BLOCKHASH: 0x40 };
const NULLARY = { TIMESTAMP: 0x42, NUMBER: 0x43, PREVRANDAO: 0x44, CHAINID: 0x46, COINBASE: 0x41 };

const old = ledgerBlock(5n, GENESIS + 10n * SECOND, { historical: true, hash: `${'0a'.repeat(32)}${'ff'.repeat(16)}` });
const latest = ledgerBlock(900n, GENESIS + 1_800n * SECOND + 123_456_789n, {
  hash: `${'c3'.repeat(32)}${'ee'.repeat(16)}`,
});

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [old, latest]);
  await insertEntity(sql, TREASURY, GENESIS, { balance: 5_000_000_000n });
  await insertEntity(sql, ACCOUNT, GENESIS, { balance: 1_234n });
  await insertEntity(sql, ALIASED_ACCOUNT, GENESIS, { balance: 99n, evm_address: Buffer.from(ACCOUNT_EVM_ADDRESS) });
  await insertContract(
    sql,
    { id: ALIASED_CONTRACT, created_timestamp: GENESIS, evm_address: Buffer.from(CONTRACT_EVM_ADDRESS), balance: 77n },
    { runtime_bytecode: probeCode(OPCODES.ADDRESS, false) },
  );
  await insertEntity(sql, TOKEN, GENESIS, { type: 'TOKEN' });
  for (const [id, code] of Object.values(SELF_DESTRUCTS)) {
    await insertContract(sql, { id, created_timestamp: GENESIS }, { runtime_bytecode: Buffer.from(code, 'hex') });
  }
  for (const opcode of Object.values(OPCODES)) {
    await insertContract(
      sql,
      { id: 2000n + BigInt(opcode), created_timestamp: GENESIS },
      { runtime_bytecode: probeCode(opcode, true) },
    );
  }
  for (const opcode of Object.values(NULLARY)) {
    await insertContract(
      sql,
      { id: 2000n + BigInt(opcode), created_timestamp: GENESIS },
      { runtime_bytecode: probeCode(opcode, false) },
    );
  }
});

async function answer(
  opcode: number,
  operand?: bigint | Uint8Array,
  change: Partial<CallTransaction> = {},
  block: BlockContext = latest,
) {
  const data =
    operand === undefined ? new Uint8Array() : typeof operand === 'bigint' ? word32(operand) : word32(uintOf(operand));
  const outcome = await ledger.session(block).run(callOf(probe(opcode), data, change));
  if (!outcome.ok) throw new Error(`probe 0x${opcode.toString(16)} failed: ${outcome.status}`);
  return outcome.output;
}

describe('block values', () => {
  it('BLOCKHASH of the current block is the first 32 bytes of its record file hash', async () => {
    expect(hexOf(await answer(OPCODES.BLOCKHASH, latest.number))).toBe(latest.hash.slice(0, 64));
  });

  it('BLOCKHASH reaches blocks more than 256 back', async () => {
    expect(hexOf(await answer(OPCODES.BLOCKHASH, old.number))).toBe(old.hash.slice(0, 64));
  });

  it('BLOCKHASH is zero for a later block, a missing one and 2^63-1', async () => {
    for (const number of [latest.number + 1n, 6n, 2n ** 63n - 1n, 2n ** 64n]) {
      expect(uintOf(await answer(OPCODES.BLOCKHASH, number))).toBe(0n);
    }
  });

  it('TIMESTAMP is the seconds of consensus_start, NUMBER the record file index', async () => {
    expect(uintOf(await answer(NULLARY.TIMESTAMP))).toBe(latest.consensusStart / SECOND);
    expect(uintOf(await answer(NULLARY.NUMBER))).toBe(latest.number);
  });

  it('PREVRANDAO is the first 32 bytes of the block hash, CHAINID the network setting, COINBASE 0.0.98', async () => {
    expect(hexOf(await answer(NULLARY.PREVRANDAO))).toBe(latest.hash.slice(0, 64));
    expect(uintOf(await answer(NULLARY.CHAINID))).toBe(296n);
    expect(uintOf(await answer(NULLARY.COINBASE))).toBe(98n);
  });
});

describe('addresses', () => {
  it('ADDRESS of a contract with an EVM address is that address, also when called by long-zero', async () => {
    const session = ledger.session(latest);
    for (const to of [longZeroAddress(ALIASED_CONTRACT), CONTRACT_EVM_ADDRESS]) {
      const outcome = await session.run(callOf(to));
      expect(hexOf(outcome.output).slice(24)).toBe(hexOf(CONTRACT_EVM_ADDRESS));
    }
  });

  it('CALLER without `from` is the treasury 0.0.2, with `from` the canonical address of the account', async () => {
    expect(uintOf(await answer(OPCODES.CALLER, 0n))).toBe(2n);
    const aliased = await answer(OPCODES.CALLER, 0n, { from: longZeroAddress(ALIASED_ACCOUNT) });
    expect(hexOf(aliased).slice(24)).toBe(hexOf(ACCOUNT_EVM_ADDRESS));
  });
});

describe('balances and code of accounts', () => {
  it('BALANCE is the real balance of an account (no minimum) and of a contract', async () => {
    expect(uintOf(await answer(OPCODES.BALANCE, longZeroAddress(ACCOUNT)))).toBe(1_234n);
    expect(uintOf(await answer(OPCODES.BALANCE, CONTRACT_EVM_ADDRESS))).toBe(77n);
    expect(uintOf(await answer(OPCODES.BALANCE, ACCOUNT_EVM_ADDRESS))).toBe(99n);
  });

  it('BALANCE of a system account by long-zero is 0', async () => {
    expect(uintOf(await answer(OPCODES.BALANCE, longZeroAddress(TREASURY)))).toBe(0n);
  });

  it('EXTCODEHASH is keccak of nothing for an account, 0 for a system account and for an unknown address', async () => {
    expect(hexOf(await answer(OPCODES.EXTCODEHASH, longZeroAddress(ACCOUNT)))).toBe(
      hexOf(keccak_256(new Uint8Array())),
    );
    expect(uintOf(await answer(OPCODES.EXTCODEHASH, longZeroAddress(TREASURY)))).toBe(0n);
    expect(uintOf(await answer(OPCODES.EXTCODEHASH, longZeroAddress(999_999n)))).toBe(0n);
  });

  it('EXTCODEHASH of a contract is keccak of its runtime code, EXTCODESIZE its length', async () => {
    const code = probeCode(OPCODES.ADDRESS, false);
    expect(hexOf(await answer(OPCODES.EXTCODEHASH, CONTRACT_EVM_ADDRESS))).toBe(hexOf(keccak_256(code)));
    expect(uintOf(await answer(OPCODES.EXTCODESIZE, longZeroAddress(ALIASED_CONTRACT)))).toBe(BigInt(code.length));
    expect(uintOf(await answer(OPCODES.EXTCODESIZE, longZeroAddress(TREASURY)))).toBe(0n);
  });

  it('treats the long-zero address of an account with an EVM address as a missing account', async () => {
    expect(uintOf(await answer(OPCODES.BALANCE, longZeroAddress(ALIASED_ACCOUNT)))).toBe(0n);
    expect(uintOf(await answer(OPCODES.EXTCODEHASH, longZeroAddress(ALIASED_ACCOUNT)))).toBe(0n);
    const outcome = await ledger.session(latest).run(callOf(longZeroAddress(ALIASED_ACCOUNT), fromHex('12345678')));
    expect(outcome).toMatchObject({ ok: false, status: 'INVALID_CONTRACT_ID' });
  });
});

describe('SELFDESTRUCT', () => {
  const destruct = (id: bigint) => ledger.session(latest).run(callOf(longZeroAddress(id)));

  it('sweeps to an existing account', async () => {
    expect(await destruct(SELF_DESTRUCTS.account[0])).toMatchObject({ ok: true });
  });

  it.each([
    ['a system account', SELF_DESTRUCTS.system[0]],
    ['a missing account', SELF_DESTRUCTS.missing[0]],
    ['a token', SELF_DESTRUCTS.token[0]],
  ])('halts with INVALID_SOLIDITY_ADDRESS for %s as beneficiary', async (_name, id) => {
    expect(await destruct(id)).toMatchObject({ ok: false, status: 'INVALID_SOLIDITY_ADDRESS', gasUsed: 15_000_000n });
  });
});

describe('EVM version by block', () => {
  const mainnet = { ...TESTNET_SETTINGS, network: 'MAINNET' as const, chainId: 295n };
  const TLOAD = fromHex('5f5c00'); // PUSH0 TLOAD STOP

  it('runs Cancun opcodes from v0.50 on and fails them with CONTRACT_EXECUTION_EXCEPTION on v0.46', async () => {
    const at = (number: bigint) => ({ ...latest, number, historical: true });
    const cancun = await ledger.session(at(65_435_845n), { settings: mainnet }).run(callOf(undefined, TLOAD));
    const shanghai = await ledger.session(at(65_435_844n), { settings: mainnet }).run(callOf(undefined, TLOAD));
    expect(cancun).toMatchObject({ ok: true });
    expect(shanghai).toMatchObject({ ok: false, status: 'CONTRACT_EXECUTION_EXCEPTION' });
  });

  it('runs PUSH0 from v0.46 (Shanghai) on and fails it before', async () => {
    const at = (number: bigint) => ({ ...latest, number, historical: true });
    const PUSH0 = fromHex('5f00');
    const shanghai = await ledger.session(at(60_258_042n), { settings: mainnet }).run(callOf(undefined, PUSH0));
    const london = await ledger.session(at(60_258_041n), { settings: mainnet }).run(callOf(undefined, PUSH0));
    expect(shanghai).toMatchObject({ ok: true });
    expect(london).toMatchObject({ ok: false, status: 'CONTRACT_EXECUTION_EXCEPTION' });
  });
});
