import { describe, expect, it } from 'vitest';
import { redirectBytecode } from '../../../common/redirect-bytecode.ts';
import { responseCodeName } from '../../../db/codes/response-codes.ts';
import { GENESIS, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { FUNGIBLE, returned } from '../../../test/harness/factories-evm-system.ts';
import {
  CONTRACT,
  CONTRACT_KEY,
  HTS,
  MINTED,
  RECEIVER,
  seedWritesLedger,
  writesEvm,
} from '../../../test/harness/factories-evm-writes.ts';
import { insertEntity, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import { address, bool, bytes, encode } from './abi.ts';
import { canonicalGas } from './hts-gas.ts';
import { addressArg, calldata, word } from './testing/system-evm.ts';

/** Accounts whose key names the contract: no automatic associations; one slot, used by Gold. */
const NO_SLOTS = 2100n;
const ONE_USED = 2101n;

const ledger = useEvmLedger(async (sql) => {
  await seedWritesLedger(sql);
  await insertEntity(sql, NO_SLOTS, GENESIS, { key: CONTRACT_KEY, max_automatic_token_associations: 0 });
  await insertEntity(sql, ONE_USED, GENESIS, { key: CONTRACT_KEY, max_automatic_token_associations: 1 });
  await insertTokenAccount(sql, {
    account_id: ONE_USED,
    token_id: FUNGIBLE,
    balance: 0,
    automatic_association: true,
  });
});

const setUnlimited = (value: boolean) => calldata('setUnlimitedAutomaticAssociations(bool)', encode(bool(value)));
const sendMinted = (to: bigint) =>
  calldata(
    'transferToken(address,address,address,int64)',
    addressArg(longZeroAddress(MINTED)),
    addressArg(longZeroAddress(CONTRACT)),
    addressArg(longZeroAddress(to)),
    word(5n),
  );

async function evm() {
  const system = await writesEvm(ledger.db);
  for (const id of [NO_SLOTS, ONE_USED, RECEIVER]) {
    await system.deploy(longZeroAddress(id), redirectBytecode('ACCOUNT', longZeroAddress(id)));
  }
  return system;
}

const codeOf = (result: Parameters<typeof returned>[0]) => responseCodeName(Number(returned(result).int(0)));

describe('setUnlimitedAutomaticAssociations through an account’s proxy', () => {
  it('lets a later transfer of the run associate the account automatically, for a CryptoUpdate’s gas', async () => {
    const { both, call } = await evm();
    expect(codeOf(await call(HTS, sendMinted(NO_SLOTS), { caller: longZeroAddress(CONTRACT) }))).toBe(
      'TOKEN_NOT_ASSOCIATED_TO_ACCOUNT',
    );
    // The redirect the proxy sends to 0x16a, sent directly: its gas is the system contract's alone.
    const redirect = calldata(
      'redirectForAccount(address,bytes)',
      encode(address(longZeroAddress(NO_SLOTS)), bytes(setUnlimited(true))),
    );
    const result = await call(longZeroAddress(0x16an), redirect, { caller: longZeroAddress(CONTRACT) });
    expect(codeOf(result)).toBe('SUCCESS');
    expect(result.executionGasUsed).toBe(canonicalGas('CRYPTO_UPDATE'));
    const sent = await both(
      { to: longZeroAddress(NO_SLOTS), data: setUnlimited(true) },
      { to: HTS, data: sendMinted(NO_SLOTS) },
    );
    expect(codeOf(sent)).toBe('SUCCESS');
  });

  it('refuses an account whose key the call does not carry, and a limit below the slots already used', async () => {
    const { call } = await evm();
    const contract = { caller: longZeroAddress(CONTRACT) };
    expect(codeOf(await call(longZeroAddress(RECEIVER), setUnlimited(true), contract))).toBe(
      'INVALID_FULL_PREFIX_SIGNATURE_FOR_PRECOMPILE',
    );
    expect(codeOf(await call(longZeroAddress(ONE_USED), setUnlimited(false), contract))).toBe(
      'EXISTING_AUTOMATIC_ASSOCIATIONS_EXCEED_GIVEN_LIMIT',
    );
  });

  it('answers NO_REMAINING_AUTOMATIC_ASSOCIATIONS to a transfer to an account whose slots are all used', async () => {
    const { call } = await evm();
    expect(codeOf(await call(HTS, sendMinted(ONE_USED), { caller: longZeroAddress(CONTRACT) }))).toBe(
      'NO_REMAINING_AUTOMATIC_ASSOCIATIONS',
    );
  });
});
