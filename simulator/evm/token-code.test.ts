import { describe, expect, it } from 'vitest';
import { redirectBytecode } from '../../common/redirect-bytecode.ts';
import { longZeroAddress } from '../ledger/ids.ts';
import { Ledger } from '../ledger/ledger.ts';
import { SimEvm } from './evm.ts';
import { htsSystemContract } from './hts-system.ts';

const CALLER = 2001n;
const TOKEN = 2010n;
const NOT_A_TOKEN = 2011n;

/** Runtime code answering EXTCODESIZE of the address in its first argument word. */
const EXTCODESIZE_OF_ARGUMENT = new Uint8Array([
  0x60, 0x04, 0x35, 0x3b, 0x60, 0x00, 0x52, 0x60, 0x20, 0x60, 0x00, 0xf3,
]);

function ledgerWithToken(): Ledger {
  const ledger = new Ledger(4);
  ledger.tokens.set(TOKEN, {
    num: TOKEN,
    type: 'FUNGIBLE_COMMON',
    name: 'T',
    symbol: 'T',
    decimals: 0,
    treasury: 2n,
    totalSupply: 0n,
    nextSerial: 1n,
    frozen: new Set(),
    settings: {},
  });
  return ledger;
}

async function codeSizeSeen(evm: SimEvm, num: bigint): Promise<bigint> {
  const argument = new Uint8Array(32);
  argument.set(longZeroAddress(num), 12);
  const outcome = await evm.transact({
    sender: longZeroAddress(2n),
    contract: longZeroAddress(CALLER),
    create: false,
    data: new Uint8Array([0, 0, 0, 0, ...argument]),
    gasLimit: 100_000n,
  });
  expect(outcome.success).toBe(true);
  return BigInt(`0x${Buffer.from(outcome.output).toString('hex')}`);
}

describe("a token's address in the simulated network's EVM", () => {
  it('shows the redirect proxy to EXTCODESIZE, as the node does, while the system contract answers', async () => {
    const evm = new SimEvm();
    await evm.install([{ address: longZeroAddress(CALLER), runtime: EXTCODESIZE_OF_ARGUMENT, storage: new Map() }]);
    evm.systemContract = htsSystemContract(ledgerWithToken());
    expect(await codeSizeSeen(evm, TOKEN)).toBe(BigInt(redirectBytecode('TOKEN', longZeroAddress(TOKEN)).length));
    expect(await codeSizeSeen(evm, NOT_A_TOKEN)).toBe(0n);
    evm.systemContract = undefined;
    expect(await codeSizeSeen(evm, TOKEN)).toBe(0n);
  });
});
