import type { EVM } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { redirectBytecode } from '../../../common/redirect-bytecode.ts';
import { responseCodeName } from '../../../db/codes/response-codes.ts';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { insertRow } from '../../../test/harness/factories.ts';
import { FUNGIBLE, HOLDER, NFT, returned, SPENDER } from '../../../test/harness/factories-evm-system.ts';
import {
  CONTRACT,
  CONTRACT_KEY,
  HTS,
  RECEIVER,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { insertEntity, insertNft, insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, array, bool, encode, int, tuple } from './abi.ts';
import { addressArg, calldata, word } from './testing/system-evm.ts';

/**
 * A contract holding Gold but no hbar, whose key names the contract that calls. (An account, not a contract, shows
 * the EVM a minimum balance, so a call never fails for its want of hbar.)
 */
const NO_HBAR = 2500n;

/** A serial of Art the contract holds. */
const HELD = 6n;
/** A token whose 1/10 fractional fee, not net of transfers, the receivers pay to the spender. */
const SPLIT = 2600n;
/** An account whose key names the contract, with 1,000 tinybars, associated with Art. */
const BUYER = 2700n;
/** A token whose fixed fee of 4 Gold goes to the receiver; Gold's own fees are then due on that payment. */
const TOLL = 2800n;

const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  await insertTokenAccount(sql, { account_id: CONTRACT, token_id: NFT, balance: 1 });
  await insertNft(sql, { token_id: NFT, serial_number: HELD, created_timestamp: GENESIS, account_id: CONTRACT });
  await insertToken(sql, SPLIT, GENESIS, { treasury_account_id: HOLDER });
  await insertRow(sql, 'custom_fee', {
    entity_id: SPLIT,
    fractional_fees: JSON.stringify([
      {
        numerator: 1,
        denominator: 10,
        minimum_amount: 0,
        maximum_amount: 0,
        net_of_transfers: false,
        collector_account_id: Number(SPENDER),
      },
    ]),
    timestamp_range: `[${GENESIS},)`,
  });
  for (const [account, balance] of [
    [CONTRACT, 100],
    [RECEIVER, 0],
    [SPENDER, 0],
  ] as const) {
    await insertTokenAccount(sql, { account_id: account, token_id: SPLIT, balance });
  }
  await insertEntity(sql, NO_HBAR, GENESIS, { type: 'CONTRACT', key: CONTRACT_KEY, balance: 0n });
  await insertEntity(sql, BUYER, GENESIS, { key: CONTRACT_KEY, balance: 1000n });
  await insertTokenAccount(sql, { account_id: BUYER, token_id: NFT, balance: 0 });
  await insertToken(sql, TOLL, GENESIS, { treasury_account_id: HOLDER });
  await insertRow(sql, 'custom_fee', {
    entity_id: TOLL,
    fixed_fees: JSON.stringify([
      { amount: 4, collector_account_id: Number(RECEIVER), denominating_token_id: Number(FUNGIBLE) },
    ]),
    timestamp_range: `[${GENESIS},)`,
  });
  await insertTokenAccount(sql, { account_id: CONTRACT, token_id: TOLL, balance: 10 });
  await insertTokenAccount(sql, { account_id: RECEIVER, token_id: TOLL, balance: 0 });
  await insertTokenAccount(sql, { account_id: NO_HBAR, token_id: FUNGIBLE, balance: 50, freeze_status: 2 });
});

const at = (id: bigint) => addressArg(longZeroAddress(id));
const gold = longZeroAddress(FUNGIBLE);
const sendGold = (from: bigint, amount: bigint) =>
  calldata('transferToken(address,address,address,int64)', at(FUNGIBLE), at(from), at(RECEIVER), word(amount));
/** cryptoTransfer v2 moving `amount` tinybars from the contract to the receiver. */
const sendHbar = (amount: bigint) =>
  calldata(
    'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
    encode(
      tuple(
        array([
          tuple(address(longZeroAddress(CONTRACT)), int(-amount), bool(false)),
          tuple(address(longZeroAddress(RECEIVER)), int(amount), bool(false)),
        ]),
      ),
      array([]),
    ),
  );
/** An account's hbar in the state the last call left. */
async function hbarOf(evm: EVM, id: bigint): Promise<bigint | undefined> {
  return (await evm.stateManager.getAccount(new Address(longZeroAddress(id))))?.balance;
}
const codeOf = (result: Parameters<typeof returned>[0]) => responseCodeName(Number(returned(result).int(0)));

describe('custom fees charged on HTS transfers', () => {
  it('charges the sender the token’s fixed hbar fee, so the rest of its hbar is all it can send after', async () => {
    const { both } = await writesEvm(ledger.db);
    const transfer = { to: HTS, data: sendGold(CONTRACT, 1n) };
    expect(codeOf(await both(transfer, { to: HTS, data: sendHbar(995n) }))).toBe('SUCCESS');
    expect(codeOf(await both(transfer, { to: HTS, data: sendHbar(996n) }))).toBe('INSUFFICIENT_ACCOUNT_BALANCE');
  });

  it('fails a transfer whose sender cannot pay the fee, and exempts the token’s treasury', async () => {
    const { call } = await writesEvm(ledger.db);
    const contract = { caller: longZeroAddress(CONTRACT) };
    expect(codeOf(await call(HTS, sendGold(NO_HBAR, 1n), contract))).toBe(
      'INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE',
    );
    const treasury = await call(HTS, sendGold(HOLDER, 1n), { caller: longZeroAddress(HOLDER) });
    expect(codeOf(treasury)).toBe('SUCCESS');
  });

  it('charges an NFT’s receiver the royalty fallback when its sender gets nothing fungible back', async () => {
    const { both } = await writesEvm(ledger.db);
    const move = calldata(
      'transferNFT(address,address,address,int64)',
      at(NFT),
      at(CONTRACT),
      at(RECEIVER),
      word(HELD),
    );
    const balance = await both(
      { to: HTS, data: move },
      { to: gold, data: calldata('balanceOf(address)', at(RECEIVER)) },
    );
    expect(returned(balance).uint(0)).toBe(7n);
  });

  it('charges no fee when the token’s treasury sends', async () => {
    const { both } = await writesEvm(ledger.db);
    const move = calldata('transferFrom(address,address,uint256)', at(HOLDER), at(RECEIVER), word(1n));
    const balance = await both(
      { to: longZeroAddress(NFT), data: move },
      { to: gold, data: calldata('balanceOf(address)', at(RECEIVER)) },
    );
    expect(returned(balance).uint(0)).toBe(10n);
  });

  it('charges a net-of-transfers fractional fee to the sender on top of what it sends', async () => {
    const { both } = await writesEvm(ledger.db);
    // Gold's 1/20 of 60 is 3 (within its minimum 2 and maximum 9), paid to its collector by the sender.
    const balance = await both(
      { to: HTS, data: sendGold(CONTRACT, 60n) },
      { to: gold, data: calldata('balanceOf(address)', at(CONTRACT)) },
    );
    expect(returned(balance).uint(0)).toBe(37n);
  });

  it('takes a fractional fee not net of transfers back from the receiver’s credit', async () => {
    const system = await writesEvm(ledger.db);
    const { both } = system;
    await system.deploy(longZeroAddress(SPLIT), redirectBytecode('TOKEN', longZeroAddress(SPLIT)));
    const send = calldata(
      'transferToken(address,address,address,int64)',
      at(SPLIT),
      at(CONTRACT),
      at(RECEIVER),
      word(50n),
    );
    const split = longZeroAddress(SPLIT);
    const receiver = await both(
      { to: HTS, data: send },
      { to: split, data: calldata('balanceOf(address)', at(RECEIVER)) },
    );
    expect(returned(receiver).uint(0)).toBe(45n);
    const collector = await both(
      { to: HTS, data: send },
      { to: split, data: calldata('balanceOf(address)', at(SPENDER)) },
    );
    expect(returned(collector).uint(0)).toBe(5n);
  });

  it('takes the royalty of the hbar an NFT’s sender gets for it, and charges no fallback', async () => {
    const { evm, call } = await writesEvm(ledger.db);
    const sale = calldata(
      'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
      encode(
        tuple(
          array([
            tuple(address(longZeroAddress(BUYER)), int(-100n), bool(false)),
            tuple(address(longZeroAddress(CONTRACT)), int(100n), bool(false)),
          ]),
        ),
        array([
          tuple(
            address(longZeroAddress(NFT)),
            array([]),
            array([tuple(address(longZeroAddress(CONTRACT)), address(longZeroAddress(BUYER)), int(HELD), bool(false))]),
          ),
        ]),
      ),
    );
    // An account shows the EVM a minimum balance: its change is measured from a call that moves nothing.
    await call(gold, calldata('balanceOf(address)', at(BUYER)));
    const [holderBefore, buyerBefore] = [await hbarOf(evm, HOLDER), await hbarOf(evm, BUYER)];
    expect(codeOf(await call(HTS, sale, { caller: longZeroAddress(CONTRACT) }))).toBe('SUCCESS');
    // Art's royalty is 1/10 to its collector (the holder): 10 of the 100 the contract gets; no 3 Gold fallback.
    expect(await hbarOf(evm, CONTRACT)).toBe(1090n);
    expect(((await hbarOf(evm, HOLDER)) ?? 0n) - (holderBefore ?? 0n)).toBe(10n);
    expect(((await hbarOf(evm, BUYER)) ?? 0n) - (buyerBefore ?? 0n)).toBe(-100n);
  });

  it('charges a fee paid in another token that token’s own fees, in hbar and in its own units', async () => {
    const system = await writesEvm(ledger.db);
    await system.deploy(longZeroAddress(TOLL), redirectBytecode('TOKEN', longZeroAddress(TOLL)));
    const send = calldata(
      'transferToken(address,address,address,int64)',
      at(TOLL),
      at(CONTRACT),
      at(RECEIVER),
      word(1n),
    );
    const goldOf = async (id: bigint) =>
      returned(
        await system.both({ to: HTS, data: send }, { to: gold, data: calldata('balanceOf(address)', at(id)) }),
      ).uint(0);
    // Toll's 4 Gold to the receiver, then Gold's on that payment: 5 ℏ and 1/20 of 4 raised to its minimum 2 Gold.
    expect(await goldOf(CONTRACT)).toBe(94n);
    expect(await goldOf(RECEIVER)).toBe(14n);
    expect(await goldOf(SPENDER)).toBe(2n);
    expect(await hbarOf(system.evm, CONTRACT)).toBe(995n);
  });

  it('lets no account the transfer creates pay a fee: an NFT’s new hollow receiver owes the fallback', async () => {
    const { call } = await writesEvm(ledger.db);
    const unknown = new Uint8Array(20).fill(0xab);
    const move = calldata(
      'transferNFT(address,address,address,int64)',
      at(NFT),
      at(CONTRACT),
      addressArg(unknown),
      word(HELD),
    );
    expect(codeOf(await call(HTS, move, { caller: longZeroAddress(CONTRACT) }))).toBe(
      'INSUFFICIENT_SENDER_ACCOUNT_BALANCE_FOR_CUSTOM_FEE',
    );
  });
});
