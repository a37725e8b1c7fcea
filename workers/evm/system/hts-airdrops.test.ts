import type { EVM } from '@ethereumjs/evm';
import { Address } from '@ethereumjs/util';
import { describe, expect, it } from 'vitest';
import { responseCodeName } from '../../../db/codes/response-codes.ts';
import { GENESIS, TESTNET_SETTINGS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { insertRow } from '../../../test/harness/factories.ts';
import { ALIASED, FUNGIBLE, HOLDER, latest, returned } from '../../../test/harness/factories-evm-system.ts';
import {
  AUTO,
  CONTRACT,
  CONTRACT_KEY,
  HTS,
  MINTED,
  RECEIVER,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { insertEntity } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { firstNewEntityNumber } from '../next-entity-id.ts';
import { address, array, bool, encode, int, tuple } from './abi.ts';
import { canonicalGas } from './hts-gas.ts';
import { addressArg, calldata } from './testing/system-evm.ts';

/** An account with no automatic association slots whose key names the contract, so the contract claims for it. */
const UNSLOTTED = 2400n;
const CONTRACT_HBAR = 1_000_000_000n;
/** A new pending airdrop's $0.1 (its airdrop fee and an association's) at the ledger's 12 cents an hbar. */
const PENDING_AIRDROP_TINYBARS = 83_333_333n;

const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  await insertEntity(sql, UNSLOTTED, GENESIS, { key: CONTRACT_KEY, max_automatic_token_associations: 0 });
  // 10 ℏ: the contract pays the airdrop fees of what it airdrops.
  await sql.query('update entity set balance = $1 where id = $2', [CONTRACT_HBAR, CONTRACT]);
  await insertRow(sql, 'token_airdrop', {
    sender_account_id: HOLDER,
    receiver_account_id: UNSLOTTED,
    token_id: FUNGIBLE,
    serial_number: 0,
    amount: 5,
    state: 'PENDING',
    timestamp_range: `[${GENESIS},)`,
  });
});

const at = (id: bigint) => address(longZeroAddress(id));
const goldAirdrop = (credits: [bigint, bigint][], approval = false) => {
  const total = credits.reduce((sum, [, amount]) => sum + amount, 0n);
  const adjusts = [
    tuple(at(CONTRACT), int(-total), bool(approval)),
    ...credits.map(([account, amount]) => tuple(at(account), int(amount), bool(false))),
  ];
  return calldata(
    'airdropTokens((address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
    encode(array(credits.length === 0 ? [] : [tuple(at(FUNGIBLE), array(adjusts), array([]))])),
  );
};
const PENDING = '(address,address,address,int64)[]';
const pendingList = (sender: bigint, receiver: bigint) =>
  encode(array([tuple(at(sender), at(receiver), at(FUNGIBLE), int(0n))]));
const claim = (sender: bigint, receiver: bigint) =>
  calldata(`claimAirdrops(${PENDING})`, pendingList(sender, receiver));
const cancel = (sender: bigint, receiver: bigint) =>
  calldata(`cancelAirdrops(${PENDING})`, pendingList(sender, receiver));

/** The contract's hbar in the state the last call left. */
const contractHbar = async (evm: EVM) =>
  (await evm.stateManager.getAccount(new Address(longZeroAddress(CONTRACT))))?.balance;
const codeOf = (result: Parameters<typeof returned>[0]) => responseCodeName(Number(returned(result).int(0)));
const contract = { caller: longZeroAddress(CONTRACT) };

describe('airdropTokens on 0x167', () => {
  it('transfers to associated receivers and ones with free slots, and keeps the rest pending with the sender', async () => {
    const system = await writesEvm(ledger.db);
    const { both, call } = system;
    const data = goldAirdrop([
      [RECEIVER, 10n],
      [AUTO, 10n],
      [UNSLOTTED, 10n],
    ]);
    const { evm } = system;
    const result = await call(HTS, data, contract);
    expect(codeOf(result)).toBe('SUCCESS');
    expect(result.executionGasUsed).toBe(canonicalGas('TOKEN_AIRDROP'));
    // Gold's 5 ℏ, then $0.1 for the pending airdrop (its fee and an association's) and $0.05 for the receiver
    // associated automatically: $0.15 at 12 cents an hbar.
    expect(await contractHbar(evm)).toBe(CONTRACT_HBAR - 5n - 125_000_000n);
    const balance = await both(
      { to: HTS, data },
      { to: longZeroAddress(FUNGIBLE), data: calldata('balanceOf(address)', addressArg(longZeroAddress(CONTRACT))) },
    );
    // 20 sent, 10 pending, and Gold's net-of-transfers fractional fee: its minimum, 2.
    expect(returned(balance).uint(0)).toBe(78n);
  });

  it('charges the sender the custom fees of what stays pending, and the payer the pending airdrop’s hbar', async () => {
    const system = await writesEvm(ledger.db);
    const airdrop = { to: HTS, data: goldAirdrop([[UNSLOTTED, 10n]]) };
    const balance = await system.both(airdrop, {
      to: longZeroAddress(FUNGIBLE),
      data: calldata('balanceOf(address)', addressArg(longZeroAddress(CONTRACT))),
    });
    // The 10 stay with the contract, pending; Gold's net-of-transfers minimum of 2 goes to its collector.
    expect(returned(balance).uint(0)).toBe(98n);
    expect(await contractHbar(system.evm)).toBe(CONTRACT_HBAR - 5n - PENDING_AIRDROP_TINYBARS);
    const sendHbar = (amount: bigint) =>
      calldata(
        'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
        encode(
          tuple(array([tuple(at(CONTRACT), int(-amount), bool(false)), tuple(at(RECEIVER), int(amount), bool(false))])),
          array([]),
        ),
      );
    const short = await system.both({ to: HTS, data: sendHbar(CONTRACT_HBAR - 1000n) }, airdrop);
    expect(codeOf(short)).toBe('INSUFFICIENT_PAYER_BALANCE');
  });

  it('lets the receiver claim, and the sender cancel, an airdrop left pending earlier in the run', async () => {
    const { both } = await writesEvm(ledger.db);
    const airdrop = { to: HTS, data: goldAirdrop([[UNSLOTTED, 10n]]) };
    expect(codeOf(await both(airdrop, { to: HTS, data: claim(CONTRACT, UNSLOTTED) }))).toBe('SUCCESS');
    expect(codeOf(await both(airdrop, { to: HTS, data: cancel(CONTRACT, UNSLOTTED) }))).toBe('SUCCESS');
    const proxied = calldata('cancelAirdropFT(address)', addressArg(longZeroAddress(UNSLOTTED)));
    expect(codeOf(await both(airdrop, { to: longZeroAddress(FUNGIBLE), data: proxied }))).toBe('SUCCESS');
  });

  it('claims a pending airdrop of the ledger, associating the receiver, for a claim’s gas', async () => {
    const { call } = await writesEvm(ledger.db);
    const result = await call(HTS, claim(HOLDER, UNSLOTTED), contract);
    expect(codeOf(result)).toBe('SUCCESS');
    expect(result.executionGasUsed).toBe(canonicalGas('TOKEN_CLAIM_AIRDROP'));
  });

  it('answers the handlers’ statuses', async () => {
    const { call } = await writesEvm(ledger.db);
    const status = async (data: Uint8Array) => codeOf(await call(HTS, data, contract));
    expect(await status(goldAirdrop([]))).toBe('EMPTY_TOKEN_TRANSFER_BODY');
    expect(await status(goldAirdrop([[RECEIVER, 1n]], true))).toBe('NOT_SUPPORTED');
    expect(await status(goldAirdrop([[RECEIVER, 101n]]))).toBe('INSUFFICIENT_TOKEN_BALANCE');
    expect(await status(claim(CONTRACT, UNSLOTTED))).toBe('INVALID_PENDING_AIRDROP_ID');
    expect(await status(cancel(HOLDER, UNSLOTTED))).toBe('INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE');
    expect(await status(calldata(`cancelAirdrops(${PENDING})`, encode(array([]))))).toBe(
      'EMPTY_PENDING_AIRDROP_ID_LIST',
    );
  });
});

describe('airdropTokens to an address that names no account', () => {
  /** An EVM address no account of the ledger has. */
  const FRESH = Uint8Array.from({ length: 20 }, (_, i) => 0xa0 + i);
  /** Minted, which charges no custom fee, sent from its treasury to `receiver`. */
  const mintedAirdrop = (receiver: Uint8Array, amount: bigint) =>
    calldata(
      'airdropTokens((address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
      encode(
        array([
          tuple(
            at(MINTED),
            array([tuple(at(CONTRACT), int(-amount), bool(false)), tuple(address(receiver), int(amount), bool(false))]),
            array([]),
          ),
        ]),
      ),
    );

  it('creates a hollow account for an EVM address and transfers the tokens to it, for an airdrop’s gas', async () => {
    const { both, call } = await writesEvm(ledger.db);
    const next = await firstNewEntityNumber(ledger.db, latest, TESTNET_SETTINGS);
    const data = mintedAirdrop(FRESH, 7n);
    const result = await call(HTS, data, contract);
    expect(codeOf(result)).toBe('SUCCESS');
    expect(result.executionGasUsed).toBe(canonicalGas('TOKEN_AIRDROP'));
    const balance = await both(
      { to: HTS, data },
      { to: longZeroAddress(MINTED), data: calldata('balanceOf(address)', addressArg(FRESH)) },
    );
    expect(returned(balance).uint(0)).toBe(7n);
    const numAlias = await both(
      { to: HTS, data },
      { to: longZeroAddress(0x16an), data: calldata('getHederaAccountNumAlias(address)', addressArg(FRESH)) },
    );
    expect(returned(numAlias).address(1)).toEqual(longZeroAddress(next));
  });

  it('answers INVALID_ACCOUNT_ID for a long-zero or the zero address, which name the receiver by number', async () => {
    const { call } = await writesEvm(ledger.db);
    expect(codeOf(await call(HTS, mintedAirdrop(longZeroAddress(4321n), 7n), contract))).toBe('INVALID_ACCOUNT_ID');
    expect(codeOf(await call(HTS, mintedAirdrop(new Uint8Array(20), 7n), contract))).toBe('INVALID_ACCOUNT_ID');
  });

  it('halts an airdrop to an account numbered at most 1000, or to a non-canonical long-zero (number 0)', async () => {
    const { call } = await writesEvm(ledger.db);
    for (const receiver of [longZeroAddress(800n), longZeroAddress(ALIASED)]) {
      const result = await call(HTS, mintedAirdrop(receiver, 7n), contract);
      expect(result.exceptionError).toBeDefined();
    }
  });
});
