import { describe, expect, it } from 'vitest';
import { responseCodeByName } from '../../../db/codes/response-codes.ts';
import { useEvmLedger } from '../../../test/harness/evm-session.ts';
import { ALIAS, FUNGIBLE, HOLDER, NFT, returned, SPENDER } from '../../../test/harness/factories-evm-system.ts';
import {
  AUTO,
  CONTRACT,
  HTS,
  RECEIVER,
  redirect,
  revertCode,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { longZeroAddress } from '../addresses.ts';
import { canonicalGas, transferGas } from './hts-gas.ts';
import { addressArg, calldata, word } from './testing/system-evm.ts';
import { FIRST_MAY_FAIL, twoCalls } from './testing/two-calls.ts';

const ledger = useEvmLedger(seedWritesLedger);
const evm = () => writesEvm(ledger.db);

const gold = longZeroAddress(FUNGIBLE);
const art = longZeroAddress(NFT);
const at = (id: bigint) => addressArg(longZeroAddress(id));

const UNIT_TRANSFER_GAS = transferGas({
  hbarAdjusts: 0,
  unitAdjusts: 2,
  nftExchanges: 0,
  customFees: true,
  lazyCreations: 0,
});

describe('ERC writes through a token’s redirect proxy', () => {
  it('transfers with the caller as the sender, for the gas of a fungible transfer with custom fees', async () => {
    const { call } = await evm();
    const transfer = calldata('transfer(address,uint256)', at(RECEIVER), word(40n));
    const result = await call(HTS, redirect(gold, transfer), { caller: longZeroAddress(HOLDER) });
    expect(returned(result).bool(0)).toBe(true);
    // Two adjustments of a token with custom fees: $0.002 / 2 each, at 852 tinycents a gas, plus a fifth.
    expect(result.executionGasUsed).toBe(UNIT_TRANSFER_GAS);
    expect(UNIT_TRANSFER_GAS).toBe(29_368n);
    const proxied = await call(gold, transfer, { caller: longZeroAddress(HOLDER) });
    expect(returned(proxied).bool(0)).toBe(true);
  });

  it('shows the transfer to a read later in the same run', async () => {
    const { both } = await evm();
    const result = await both(
      { to: gold, data: calldata('transfer(address,uint256)', at(RECEIVER), word(40n)) },
      { to: gold, data: calldata('balanceOf(address)', at(RECEIVER)) },
    );
    expect(returned(result).uint(0)).toBe(50n);
  });

  it('undoes a transfer made in a frame that reverts', async () => {
    const system = await evm();
    const outer = longZeroAddress(7001n);
    await system.deploy(outer, FIRST_MAY_FAIL);
    const revertingInner = twoCalls(
      { to: gold, data: calldata('transfer(address,uint256)', at(RECEIVER), word(40n)) },
      { to: gold, data: calldata('transfer(address,uint256)', at(RECEIVER), word(1_000_000n)) },
    );
    const result = await system.call(
      outer,
      twoCalls(
        { to: longZeroAddress(CONTRACT), data: revertingInner },
        { to: gold, data: calldata('balanceOf(address)', at(RECEIVER)) },
      ),
    );
    expect(returned(result).uint(0)).toBe(10n);
  });

  it('reverts with the node’s status for a receiver not associated, a frozen one, and a short balance', async () => {
    const { call } = await evm();
    const holder = { caller: longZeroAddress(HOLDER) };
    const send = (to: Uint8Array, amount: bigint) =>
      call(HTS, redirect(gold, calldata('transfer(address,uint256)', addressArg(to), word(amount))), holder);
    // 0.0.2 holds no Gold and has no automatic association slots.
    const notAssociated = await send(longZeroAddress(2n), 1n);
    expect(revertCode(notAssociated)).toBe('TOKEN_NOT_ASSOCIATED_TO_ACCOUNT');
    expect(notAssociated.executionGasUsed).toBe(UNIT_TRANSFER_GAS);
    expect(revertCode(await send(ALIAS, 1n))).toBe('ACCOUNT_FROZEN_FOR_TOKEN');
    expect(revertCode(await send(longZeroAddress(RECEIVER), 701n))).toBe('INSUFFICIENT_TOKEN_BALANCE');
  });

  it('associates a receiver with free automatic association slots and charges the association', async () => {
    const { call } = await evm();
    const result = await call(HTS, redirect(gold, calldata('transfer(address,uint256)', at(AUTO), word(5n))), {
      caller: longZeroAddress(HOLDER),
    });
    expect(returned(result).bool(0)).toBe(true);
    expect(result.executionGasUsed).toBe(UNIT_TRANSFER_GAS + canonicalGas('ASSOCIATE'));
  });

  it('spends an allowance with transferFrom and refuses more than it holds', async () => {
    const { call } = await evm();
    const spender = { caller: longZeroAddress(SPENDER) };
    const move = (amount: bigint) =>
      call(gold, calldata('transferFrom(address,address,uint256)', at(HOLDER), at(RECEIVER), word(amount)), spender);
    expect(revertCode(await move(51n))).toBe('AMOUNT_EXCEEDS_ALLOWANCE');
    expect(returned(await move(50n)).bool(0)).toBe(true);
  });

  it('halts for an amount beyond int64, and debits through an allowance in transferFrom even from the sender', async () => {
    const { call } = await evm();
    const holder = { caller: longZeroAddress(HOLDER), gas: 100_000n };
    const huge = await call(
      HTS,
      redirect(gold, calldata('transfer(address,uint256)', at(RECEIVER), word(1n << 63n))),
      holder,
    );
    expect(huge.exceptionError?.error).not.toBe('revert');
    expect(huge.executionGasUsed).toBe(100_000n);
    const own = calldata('transferFrom(address,address,uint256)', at(HOLDER), at(RECEIVER), word(1n));
    expect(revertCode(await call(HTS, redirect(gold, own), holder))).toBe('SPENDER_DOES_NOT_HAVE_ALLOWANCE');
  });

  it('approves a spender and answers the new allowance in the same run', async () => {
    const { call, both } = await evm();
    const approve = calldata('approve(address,uint256)', at(SPENDER), word(77n));
    const alone = await call(HTS, redirect(gold, approve), { caller: longZeroAddress(HOLDER) });
    expect(returned(alone).bool(0)).toBe(true);
    expect(alone.executionGasUsed).toBe(canonicalGas('APPROVE'));
    const allowance = calldata('allowance(address,address)', at(CONTRACT), at(SPENDER));
    expect(returned(await both({ to: gold, data: approve }, { to: gold, data: allowance })).uint(0)).toBe(77n);
  });

  it('moves an NFT with transferFrom as an operator, and answers its new owner in the same run', async () => {
    const { both, call } = await evm();
    const move = calldata('transferFrom(address,address,uint256)', at(HOLDER), at(RECEIVER), word(1n));
    const owner = await both({ to: art, data: move }, { to: art, data: calldata('ownerOf(uint256)', word(1n)) });
    expect(returned(owner).address(0)).toEqual(longZeroAddress(RECEIVER));
    const stranger = await call(art, move, { caller: longZeroAddress(RECEIVER) });
    expect(revertCode(stranger)).toBe('SPENDER_DOES_NOT_HAVE_ALLOWANCE');
  });

  it('sets an operator with setApprovalForAll and a serial’s spender with approve', async () => {
    const { call } = await evm();
    const holder = { caller: longZeroAddress(HOLDER) };
    const all = await call(art, calldata('setApprovalForAll(address,bool)', at(RECEIVER), word(1n)), holder);
    expect(all.exceptionError).toBeUndefined();
    expect(all.returnValue.length).toBe(0);
    const one = await call(art, calldata('approve(address,uint256)', at(RECEIVER), word(1n)), holder);
    expect(one.exceptionError).toBeUndefined();
    const notOwner = await call(art, calldata('approve(address,uint256)', at(HOLDER), word(1n)), {
      caller: longZeroAddress(RECEIVER),
    });
    expect(revertCode(notOwner)).toBe('SENDER_DOES_NOT_OWN_NFT_SERIAL_NO');
  });
});

describe('HRC-719 through a token’s redirect', () => {
  it('associates the sender with associate(), seen by isAssociated() in the same run', async () => {
    const { both, call } = await evm();
    const result = await both(
      { to: art, data: calldata('associate()') },
      { to: art, data: calldata('isAssociated()') },
    );
    expect(returned(result).bool(0)).toBe(true);
    const alone = await call(HTS, redirect(art, calldata('associate()')), { caller: longZeroAddress(CONTRACT) });
    expect(returned(alone).int(0)).toBe(22n);
    expect(alone.executionGasUsed).toBe(canonicalGas('ASSOCIATE'));
    const again = await call(HTS, redirect(gold, calldata('associate()')), { caller: longZeroAddress(CONTRACT) });
    expect(returned(again).int(0)).toBe(BigInt(responseCodeByName('TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT') ?? 0));
  });

  it('refuses to dissociate() an account that still holds the token', async () => {
    const { call } = await evm();
    const result = await call(HTS, redirect(gold, calldata('dissociate()')), { caller: longZeroAddress(CONTRACT) });
    expect(returned(result).int(0)).toBe(BigInt(responseCodeByName('TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES') ?? 0));
    expect(result.executionGasUsed).toBe(canonicalGas('DISSOCIATE'));
  });
});
