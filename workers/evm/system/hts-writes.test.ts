import { describe, expect, it } from 'vitest';
import { responseCodeByName, responseCodeName } from '../../../db/codes/response-codes.ts';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { insertNftAllowance } from '../../../test/harness/factories-accounts.ts';
import {
  ALIAS,
  FUNGIBLE,
  HOLDER,
  latest,
  NFT,
  returned,
  SPENDER,
  seedTokenLedger,
  systemEvmAt,
  TOKEN_REDIRECTS,
} from '../../../test/harness/factories-evm-system.ts';
import { insertEntity, insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { AbiArgs, address, array, bytes, encode, int, tuple } from './abi.ts';
import { canonicalGas, transferGas } from './hts-gas.ts';
import { addressArg, calldata, word } from './testing/system-evm.ts';
import { FIRST_MAY_FAIL, TWO_CALLS, twoCalls } from './testing/two-calls.ts';

/** A contract (running TWO_CALLS) holding Gold and treasury of two tokens whose keys name it. */
const CONTRACT = 1700n;
const RECEIVER = 1800n;
/** An account with unlimited automatic associations and none made. */
const AUTO = 1801n;
const MINTED = 1900n;
const MINTED_NFT = 1950n;
/** Key { contractID { contractNum: 1700 } }. */
const CONTRACT_KEY = Buffer.from('0a0318a40d', 'hex');

const ledger = useEvmLedger(async (sql) => {
  await seedTokenLedger(sql);
  await insertEntity(sql, CONTRACT, GENESIS, { type: 'CONTRACT', key: CONTRACT_KEY });
  await insertEntity(sql, RECEIVER, GENESIS);
  await insertEntity(sql, AUTO, GENESIS, { max_automatic_token_associations: -1 });
  await insertTokenAccount(sql, { account_id: CONTRACT, token_id: FUNGIBLE, balance: 100, freeze_status: 2 });
  await insertTokenAccount(sql, { account_id: RECEIVER, token_id: FUNGIBLE, balance: 0, freeze_status: 2 });
  await insertTokenAccount(sql, { account_id: RECEIVER, token_id: NFT, balance: 0 });
  await insertNftAllowance(sql, { owner: HOLDER, spender: CONTRACT, token_id: NFT });
  for (const [id, type] of [
    [MINTED, 'FUNGIBLE_COMMON'],
    [MINTED_NFT, 'NON_FUNGIBLE_UNIQUE'],
  ] as const) {
    await insertToken(sql, id, GENESIS, {
      name: 'Minted',
      symbol: 'MNT',
      type,
      decimals: 0,
      total_supply: type === 'FUNGIBLE_COMMON' ? 500 : 0,
      treasury_account_id: CONTRACT,
      supply_key: CONTRACT_KEY,
      pause_key: CONTRACT_KEY,
      wipe_key: CONTRACT_KEY,
    });
    await sql.query('update entity set key = $1 where id = $2', [CONTRACT_KEY, id]);
    await insertTokenAccount(sql, {
      account_id: CONTRACT,
      token_id: id,
      balance: type === 'FUNGIBLE_COMMON' ? 500 : 0,
    });
  }
  await insertTokenAccount(sql, { account_id: RECEIVER, token_id: MINTED, balance: 20 });
});

const HTS = longZeroAddress(0x167n);
const gold = longZeroAddress(FUNGIBLE);
const art = longZeroAddress(NFT);
const at = (id: bigint) => addressArg(longZeroAddress(id));
const code = (status: number) => BigInt(status);

async function evm() {
  const system = await systemEvmAt(ledger.db, latest, [
    ...TOKEN_REDIRECTS,
    { kind: 'TOKEN', address: longZeroAddress(MINTED) },
    { kind: 'TOKEN', address: longZeroAddress(MINTED_NFT) },
  ]);
  await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
  /** Two calls made by the contract in one run; the answer of the second. */
  const both = (first: { to: Uint8Array; data: Uint8Array }, second: { to: Uint8Array; data: Uint8Array }) =>
    system.call(longZeroAddress(CONTRACT), twoCalls(first, second));
  return { ...system, both };
}

/** The redirect a token's proxy sends to 0x167, sent directly: its gas is the system contract's alone. */
const redirect = (token: Uint8Array, data: Uint8Array) =>
  new Uint8Array(Buffer.concat([Buffer.from('618dc65e', 'hex'), token, data]));

/** The code a failed dispatch reverts with: its number in a 32-byte word. */
function revertCode(result: Awaited<ReturnType<Awaited<ReturnType<typeof evm>>['call']>>): string {
  expect(result.exceptionError?.error).toBe('revert');
  expect(result.returnValue.length).toBe(32);
  return responseCodeName(Number(new AbiArgs(result.returnValue).uint(0)));
}

const UNIT_TRANSFER_GAS = transferGas({ hbarAdjusts: 0, unitAdjusts: 2, nftExchanges: 0, customFees: true });

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
    expect(returned(result).uint(0)).toBe(40n);
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
    expect(returned(result).uint(0)).toBe(0n);
  });

  it('reverts with the node’s status for a receiver not associated, a frozen one, and a short balance', async () => {
    const { call } = await evm();
    const holder = { caller: longZeroAddress(HOLDER) };
    const send = (to: Uint8Array, amount: bigint) =>
      call(HTS, redirect(gold, calldata('transfer(address,uint256)', addressArg(to), word(amount))), holder);
    const notAssociated = await send(longZeroAddress(SPENDER), 1n);
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

describe('HTS 0x167 writes called directly', () => {
  it('transfers with transferToken and answers SUCCESS, or the failure’s code without reverting', async () => {
    const { call } = await evm();
    const holder = { caller: longZeroAddress(HOLDER) };
    const send = (amount: bigint) =>
      call(
        HTS,
        calldata('transferToken(address,address,address,int64)', at(FUNGIBLE), at(HOLDER), at(RECEIVER), word(amount)),
        holder,
      );
    expect(returned(await send(10n)).int(0)).toBe(code(22));
    const short = await send(701n);
    expect(returned(short).int(0)).toBe(code(178));
    expect(short.executionGasUsed).toBe(UNIT_TRANSFER_GAS);
  });

  it('undoes every part of a cryptoTransfer one of whose lists fails', async () => {
    const { both } = await evm();
    const lists = array([
      tuple(
        address(gold),
        array([
          tuple(address(longZeroAddress(CONTRACT)), int(-5n)),
          tuple(address(longZeroAddress(RECEIVER)), int(5n)),
        ]),
        array([]),
      ),
      tuple(
        address(longZeroAddress(MINTED)),
        array([
          tuple(address(longZeroAddress(CONTRACT)), int(-1000n)),
          tuple(address(longZeroAddress(RECEIVER)), int(1000n)),
        ]),
        array([]),
      ),
    ]);
    const transfer = calldata('cryptoTransfer((address,(address,int64)[],(address,address,int64)[])[])', encode(lists));
    const balance = await both(
      { to: HTS, data: transfer },
      { to: gold, data: calldata('balanceOf(address)', at(RECEIVER)) },
    );
    expect(returned(balance).uint(0)).toBe(0n);
  });

  it('transfers hbar-less token lists with cryptoTransfer v2 and its approval flags', async () => {
    const { call } = await evm();
    const list = tuple(
      address(gold),
      array([
        tuple(address(longZeroAddress(HOLDER)), int(-20n), int(1n)),
        tuple(address(longZeroAddress(RECEIVER)), int(20n), int(0n)),
      ]),
      array([]),
    );
    const data = calldata(
      'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
      encode(tuple(array([])), array([list])),
    );
    const result = await call(HTS, data, { caller: longZeroAddress(SPENDER) });
    expect(returned(result).int(0)).toBe(code(22));
  });

  it('mints for a contract that holds the supply key, and refuses a caller that does not', async () => {
    const { both, call } = await evm();
    const mint = calldata(
      'mintToken(address,int64,bytes[])',
      encode(address(longZeroAddress(MINTED)), int(25n), array([])),
    );
    const supply = await both(
      { to: HTS, data: mint },
      { to: longZeroAddress(MINTED), data: calldata('totalSupply()') },
    );
    expect(returned(supply).uint(0)).toBe(525n);
    const refused = returned(await call(HTS, mint, { caller: longZeroAddress(HOLDER) }));
    expect(refused.int(0)).toBe(code(326));
  });

  it('refuses the contract id key of a contract that reaches 0x167 from delegated code', async () => {
    const system = await evm();
    // Library code: calldatacopy; call(gas, 0x167, 0, 0, calldatasize, 0, 0); return the return data.
    const library = longZeroAddress(7002n);
    const forward = (opcode: string, target: Uint8Array, value: string) =>
      new Uint8Array(
        Buffer.concat([
          Buffer.from(`365f5f375f5f365f${value}73`, 'hex'),
          Buffer.from(target),
          Buffer.from(`5a${opcode}503d5f5f3e3d5ff3`, 'hex'),
        ]),
      );
    await system.deploy(library, forward('f1', HTS, '5f'));
    // The contract holding the supply key runs the library's code with DELEGATECALL.
    await system.deploy(longZeroAddress(CONTRACT), forward('f4', library, ''));
    const mint = calldata(
      'mintToken(address,int64,bytes[])',
      encode(address(longZeroAddress(MINTED)), int(1n), array([])),
    );
    const result = await system.call(longZeroAddress(CONTRACT), mint);
    expect(returned(result).int(0)).toBe(code(326));
  });

  it('mints NFTs with the next serials and answers them with the new supply', async () => {
    const { call } = await evm();
    const metadata = array([bytes(new Uint8Array([1])), bytes(new Uint8Array([2]))]);
    const data = calldata(
      'mintToken(address,int64,bytes[])',
      encode(address(longZeroAddress(MINTED_NFT)), int(0n), metadata),
    );
    const result = await call(HTS, data, { caller: longZeroAddress(CONTRACT) });
    const out = returned(result);
    expect([out.int(0), out.int(1)]).toEqual([22n, 2n]);
    const serials = out.array(2);
    expect([serials.items.int(0), serials.items.int(1)]).toEqual([1n, 2n]);
    expect(result.executionGasUsed).toBe(canonicalGas('MINT_NFT'));
  });

  it('burns, wipes, pauses and associates with the node’s codes', async () => {
    const { call, both } = await evm();
    const contract = { caller: longZeroAddress(CONTRACT) };
    const burned = returned(
      await call(
        HTS,
        calldata('burnToken(address,int64,int64[])', at(MINTED), word(100n), word(0x60n), word(0n)),
        contract,
      ),
    );
    expect([burned.int(0), burned.int(1)]).toEqual([22n, 400n]);
    const wiped = await call(
      HTS,
      calldata('wipeTokenAccount(address,address,int64)', at(MINTED), at(RECEIVER), word(21n)),
      contract,
    );
    expect(returned(wiped).int(0)).toBe(code(192));
    const paused = await both(
      { to: HTS, data: calldata('pauseToken(address)', at(MINTED)) },
      {
        to: HTS,
        data: calldata(
          'transferToken(address,address,address,int64)',
          at(MINTED),
          at(CONTRACT),
          at(RECEIVER),
          word(1n),
        ),
      },
    );
    expect(returned(paused).int(0)).toBe(code(265));
    const associated = await call(HTS, calldata('associateToken(address,address)', at(AUTO), at(MINTED)), {
      caller: longZeroAddress(AUTO),
    });
    expect(returned(associated).int(0)).toBe(22n);
    expect(associated.executionGasUsed).toBe(canonicalGas('ASSOCIATE'));
    const forOther = await call(HTS, calldata('associateToken(address,address)', at(SPENDER), at(MINTED)), {
      caller: longZeroAddress(HOLDER),
    });
    expect(returned(forOther).int(0)).toBe(code(326));
  });

  const addresses = (...ids: bigint[]) => array(ids.map((id) => address(longZeroAddress(id))));
  const ints = (...values: bigint[]) => array(values.map((value) => int(value)));
  const CASES: [string, bigint, string, Uint8Array, string][] = [
    [
      'transferTokens',
      CONTRACT,
      'transferTokens(address,address[],int64[])',
      encode(address(longZeroAddress(MINTED)), addresses(CONTRACT, RECEIVER), ints(-5n, 5n)),
      'SUCCESS',
    ],
    [
      'transferNFTs by an operator',
      CONTRACT,
      'transferNFTs(address,address[],address[],int64[])',
      encode(address(art), addresses(HOLDER), addresses(RECEIVER), ints(1n)),
      'SUCCESS',
    ],
    [
      'transferFromNFT by an operator',
      CONTRACT,
      'transferFromNFT(address,address,address,uint256)',
      encode(address(art), address(longZeroAddress(HOLDER)), address(longZeroAddress(RECEIVER)), int(1n)),
      'SUCCESS',
    ],
    [
      'approveNFT by an operator',
      CONTRACT,
      'approveNFT(address,address,uint256)',
      encode(address(art), address(longZeroAddress(SPENDER)), int(1n)),
      'SUCCESS',
    ],
    [
      'setApprovalForAll',
      HOLDER,
      'setApprovalForAll(address,address,bool)',
      encode(address(art), address(longZeroAddress(RECEIVER)), int(1n)),
      'SUCCESS',
    ],
    [
      'associateTokens',
      AUTO,
      'associateTokens(address,address[])',
      encode(address(longZeroAddress(AUTO)), addresses(MINTED, MINTED_NFT)),
      'SUCCESS',
    ],
    [
      'dissociateTokens of a token not associated',
      AUTO,
      'dissociateTokens(address,address[])',
      encode(address(longZeroAddress(AUTO)), addresses(MINTED)),
      'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT',
    ],
    [
      'dissociateToken of a held token',
      RECEIVER,
      'dissociateToken(address,address)',
      encode(address(longZeroAddress(RECEIVER)), address(longZeroAddress(MINTED))),
      'TRANSACTION_REQUIRES_ZERO_TOKEN_BALANCES',
    ],
    [
      'wipeTokenAccountNFT of a serial never minted',
      CONTRACT,
      'wipeTokenAccountNFT(address,address,int64[])',
      encode(address(longZeroAddress(MINTED_NFT)), address(longZeroAddress(RECEIVER)), ints(1n)),
      'INVALID_NFT_ID',
    ],
    [
      'freezeToken of a token without a freeze key',
      CONTRACT,
      'freezeToken(address,address)',
      encode(address(longZeroAddress(MINTED)), address(longZeroAddress(RECEIVER))),
      'TOKEN_HAS_NO_FREEZE_KEY',
    ],
    [
      'unfreezeToken with a freeze key the caller lacks',
      CONTRACT,
      'unfreezeToken(address,address)',
      encode(address(gold), address(longZeroAddress(RECEIVER))),
      'INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE',
    ],
    [
      'grantTokenKyc of a token without a KYC key',
      CONTRACT,
      'grantTokenKyc(address,address)',
      encode(address(longZeroAddress(MINTED)), address(longZeroAddress(RECEIVER))),
      'TOKEN_HAS_NO_KYC_KEY',
    ],
    [
      'revokeTokenKyc of a token without a KYC key',
      CONTRACT,
      'revokeTokenKyc(address,address)',
      encode(address(longZeroAddress(MINTED)), address(longZeroAddress(RECEIVER))),
      'TOKEN_HAS_NO_KYC_KEY',
    ],
    ['unpauseToken', CONTRACT, 'unpauseToken(address)', encode(address(longZeroAddress(MINTED))), 'SUCCESS'],
    ['deleteToken', CONTRACT, 'deleteToken(address)', encode(address(longZeroAddress(MINTED))), 'SUCCESS'],
    [
      'deleteToken with an admin key the caller lacks',
      CONTRACT,
      'deleteToken(address)',
      encode(address(gold)),
      'INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE',
    ],
  ];

  it.each(CASES)('answers %s with its response code', async (_name, caller, signature, args, status) => {
    const { call } = await evm();
    const result = await call(HTS, calldata(signature, args), { caller: longZeroAddress(caller) });
    expect(responseCodeName(Number(returned(result).int(0)))).toBe(status);
  });

  it('mints and burns with the v1 signatures, answering the new total supply', async () => {
    const { call } = await evm();
    const contract = { caller: longZeroAddress(CONTRACT) };
    const token = address(longZeroAddress(MINTED));
    const minted = returned(
      await call(HTS, calldata('mintToken(address,uint64,bytes[])', encode(token, int(5n), array([]))), contract),
    );
    expect([minted.int(0), minted.int(1)]).toEqual([22n, 505n]);
    const burned = returned(
      await call(HTS, calldata('burnToken(address,uint64,int64[])', encode(token, int(10n), array([]))), contract),
    );
    expect([burned.int(0), burned.int(1)]).toEqual([22n, 490n]);
  });

  it('halts a DELEGATECALL to 0x167 from a contract that is no token’s proxy', async () => {
    const system = await evm();
    // calldatacopy(0, 0, calldatasize); delegatecall(gas, 0x167, 0, calldatasize, 0, 0); return(0, returndatasize)
    const delegator = new Uint8Array(
      Buffer.concat([
        Buffer.from('365f5f375f5f365f73', 'hex'),
        Buffer.from(HTS),
        Buffer.from('5af4503d5f5f3e3d5ff3', 'hex'),
      ]),
    );
    await system.deploy(longZeroAddress(7777n), delegator);
    const result = await system.call(longZeroAddress(7777n), calldata('isToken(address)', at(FUNGIBLE)));
    expect(result.exceptionError).toBeUndefined();
    expect(result.returnValue.length).toBe(0);
  });

  it('halts a write in a static frame', async () => {
    const { evm: machine } = await evm();
    const result = await machine.runCall({
      to: new (await import('@ethereumjs/util')).Address(HTS),
      caller: new (await import('@ethereumjs/util')).Address(longZeroAddress(HOLDER)),
      data: calldata('pauseToken(address)', at(MINTED)),
      gasLimit: 1_000_000n,
      isStatic: true,
    });
    expect(result.execResult.exceptionError).toBeDefined();
    expect(result.execResult.executionGasUsed).toBe(1_000_000n);
  });
});
