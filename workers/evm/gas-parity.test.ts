import { keccak_256 } from '@noble/hashes/sha3.js';
import { expect, it } from 'vitest';
import { artifact, callData, fromHex, word } from '../../simulator/evm/abi.ts';
import { callOf, GENESIS, insertBlocks, ledgerBlock, useEvmLedger } from '../../test/harness/evm-session.ts';
import { insertContract } from '../../test/harness/factories-contracts.ts';
import { insertContractSlot } from '../../test/harness/factories-evm.ts';
import { insertEntity } from '../../test/harness/factories-tokens.ts';
import { longZeroAddress } from './addresses.ts';

/**
 * Gas as an independent EVM counts it: anvil (Foundry, `--hardfork cancun`) ran the same transactions on the same
 * state (Counter deployed with 7, then increment(5), count(), reset(); SimToken deployed with a supply of 1,000 to
 * the sender, then transfer(0xdead, 10)) and reported these receipts' gasUsed. Hedera charges the same without its
 * 80% floor, which the mirror turns off.
 */
const ANVIL_GAS_USED = {
  counterDeploy: 211_372n,
  increment: 50_935n,
  count: 23_323n,
  reset: 23_640n,
  tokenDeploy: 531_207n,
  transfer: 51_316n,
};
/** anvil's first account, the sender of those transactions (its storage slots depend on its address). */
const SENDER = fromHex('f39fd6e51aad88f6f4ce6ab8827279cfffb92266');
const latest = ledgerBlock(3n, GENESIS);
/** The storage slot of `mapping[key]` for a mapping at `slot`. */
const mapSlot = (key: Uint8Array, slot: bigint) =>
  BigInt(
    `0x${Buffer.from(keccak_256(new Uint8Array([...new Uint8Array(12), ...key, ...word(slot)]))).toString('hex')}`,
  );
const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 1n });
  await insertEntity(sql, 1050n, GENESIS, { balance: 10n ** 18n, evm_address: Buffer.from(SENDER) });
  await insertContract(
    sql,
    { id: 1001n, created_timestamp: GENESIS },
    { runtime_bytecode: fromHex(artifact('Counter').runtime) },
  );
  await insertContractSlot(sql, { contract_id: 1001n, slot: 0n, value: 7n, modified_timestamp: GENESIS });
  await insertContract(
    sql,
    { id: 1003n, created_timestamp: GENESIS },
    { runtime_bytecode: fromHex(artifact('Counter').runtime) },
  );
  await insertContractSlot(sql, { contract_id: 1003n, slot: 0n, value: 12n, modified_timestamp: GENESIS });
  await insertContractSlot(sql, {
    contract_id: 1003n,
    slot: mapSlot(SENDER, 1n),
    value: 5n,
    modified_timestamp: GENESIS,
  });
  await insertContract(
    sql,
    { id: 1002n, created_timestamp: GENESIS },
    { runtime_bytecode: fromHex(artifact('SimToken').runtime) },
  );
  await insertContractSlot(sql, { contract_id: 1002n, slot: 2n, value: 1000n, modified_timestamp: GENESIS });
  await insertContractSlot(sql, {
    contract_id: 1002n,
    slot: mapSlot(SENDER, 3n),
    value: 1000n,
    modified_timestamp: GENESIS,
  });
});

it('uses the gas anvil uses for deploys, calls, storage writes and refunds', async () => {
  const c = artifact('Counter');
  const t = artifact('SimToken');
  /** An ABI string's length word and one padded word of text. */
  const enc = (s: string) => {
    const b = Buffer.from(s);
    const p = Buffer.alloc(32);
    b.copy(p);
    return [...word(BigInt(b.length)), ...p];
  };
  const cases = {
    counterDeploy: callOf(undefined, new Uint8Array([...fromHex(c.initcode), ...word(7n)]), { from: SENDER }),
    increment: callOf(longZeroAddress(1001n), callData(c, 'increment(uint256)', [word(5n)]), { from: SENDER }),
    count: callOf(longZeroAddress(1001n), callData(c, 'count()', []), { from: SENDER }),
    reset: callOf(longZeroAddress(1003n), callData(c, 'reset()', []), { from: SENDER }),
    tokenDeploy: callOf(
      undefined,
      new Uint8Array([
        ...fromHex(t.initcode),
        ...word(96n),
        ...word(160n),
        ...word(1000n),
        ...enc('Sim Token'),
        ...enc('SIM'),
      ]),
      { from: SENDER },
    ),
    transfer: callOf(longZeroAddress(1002n), callData(t, 'transfer(address,uint256)', [word(0xdeadn), word(10n)]), {
      from: SENDER,
    }),
  };
  const used: Record<string, bigint> = {};
  for (const [name, call] of Object.entries(cases)) {
    const outcome = await ledger.session(latest).run(call);
    expect(outcome.ok).toBe(true);
    used[name] = outcome.gasUsed;
  }
  expect(used).toEqual(ANVIL_GAS_USED);
});
