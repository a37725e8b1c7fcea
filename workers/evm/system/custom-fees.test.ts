import { describe, expect, it } from 'vitest';
import { responseCodeName } from '../../../db/codes/response-codes.ts';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { FUNGIBLE, HOLDER, NFT, returned } from '../../../test/harness/factories-evm-system.ts';
import {
  CONTRACT,
  CONTRACT_KEY,
  HTS,
  RECEIVER,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { insertEntity, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, array, bool, encode, int, tuple } from './abi.ts';
import { addressArg, calldata, word } from './testing/system-evm.ts';

/**
 * A contract holding Gold but no hbar, whose key names the contract that calls. (An account, not a contract, shows
 * the EVM a minimum balance, so a call never fails for its want of hbar.)
 */
const NO_HBAR = 2500n;

const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  await insertEntity(sql, NO_HBAR, GENESIS, { type: 'CONTRACT', key: CONTRACT_KEY, balance: 0n });
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
    const move = calldata('transferFrom(address,address,uint256)', at(HOLDER), at(RECEIVER), word(1n));
    const balance = await both(
      { to: longZeroAddress(NFT), data: move },
      { to: gold, data: calldata('balanceOf(address)', at(RECEIVER)) },
    );
    expect(returned(balance).uint(0)).toBe(7n);
  });
});
