import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { responseCodeName } from '../../../db/codes/response-codes.ts';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { FUNGIBLE, HOLDER, NFT, returned, SPENDER } from '../../../test/harness/factories-evm-system.ts';
import {
  AUTO,
  CONTRACT,
  CONTRACT_KEY,
  HTS,
  MINTED,
  MINTED_NFT,
  RECEIVER,
  seedWritesLedger,
  UNASSOCIATED,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, array, bytes, encode, int, tuple } from './abi.ts';
import { canonicalGas, transferGas } from './hts-gas.ts';
import { addressArg, calldata, word } from './testing/system-evm.ts';

/** A token the contract may wipe, with a KYC key: the receiver holds some, its KYC revoked. */
const KYC_WIPED = 1960n;
const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  await insertToken(sql, KYC_WIPED, GENESIS, {
    type: 'FUNGIBLE_COMMON',
    total_supply: 50,
    treasury_account_id: CONTRACT,
    wipe_key: CONTRACT_KEY,
    kyc_key: CONTRACT_KEY,
  });
  await insertTokenAccount(sql, { account_id: CONTRACT, token_id: KYC_WIPED, balance: 45, kyc_status: 1 });
  await insertTokenAccount(sql, { account_id: RECEIVER, token_id: KYC_WIPED, balance: 5, kyc_status: 2 });
});
const evm = () => writesEvm(ledger.db);

const gold = longZeroAddress(FUNGIBLE);
const art = longZeroAddress(NFT);
const at = (id: bigint) => addressArg(longZeroAddress(id));
const code = (status: number) => BigInt(status);

const UNIT_TRANSFER_GAS = transferGas({
  hbarAdjusts: 0,
  unitAdjusts: 2,
  nftExchanges: 0,
  customFees: true,
  lazyCreations: 0,
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
    // Relationships are settled before balances: the node's AssociateTokenRecipientsStep precedes its adjustments.
    const unassociated = await call(
      HTS,
      calldata('transferToken(address,address,address,int64)', at(FUNGIBLE), at(HOLDER), at(UNASSOCIATED), word(701n)),
      holder,
    );
    expect(returned(unassociated).int(0)).toBe(code(184));
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
    expect(returned(balance).uint(0)).toBe(10n);
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
    const withoutKyc = await call(
      HTS,
      calldata('wipeTokenAccount(address,address,int64)', at(KYC_WIPED), at(RECEIVER), word(1n)),
      contract,
    );
    expect(responseCodeName(Number(returned(withoutKyc).int(0)))).toBe('ACCOUNT_KYC_NOT_GRANTED_FOR_TOKEN');
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
      'wipeTokenAccountNFT from an account not associated, before its serials are looked at',
      CONTRACT,
      'wipeTokenAccountNFT(address,address,int64[])',
      encode(address(longZeroAddress(MINTED_NFT)), address(longZeroAddress(RECEIVER)), ints(1n)),
      'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT',
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
      to: new Address(HTS),
      caller: new Address(longZeroAddress(HOLDER)),
      data: calldata('pauseToken(address)', at(MINTED)),
      gasLimit: 1_000_000n,
      isStatic: true,
    });
    expect(result.execResult.exceptionError).toBeDefined();
    expect(result.execResult.executionGasUsed).toBe(1_000_000n);
  });
});
