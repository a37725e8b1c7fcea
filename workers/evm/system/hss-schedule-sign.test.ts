import { Address } from '@ethereumjs/util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { describe, expect, it } from 'vitest';
import { responseCodeByName } from '../../../db/codes/response-codes.ts';
import { GENESIS, insertBlocks, ledgerBlock, SECOND, useEvmLedger } from '../../../test/harness/evm-session.ts';
import { insertRow } from '../../../test/harness/factories.ts';
import { returned, systemEvmAt } from '../../../test/harness/factories-evm-system.ts';
import { insertEntity, insertToken, insertTokenAccount } from '../../../test/harness/factories-tokens.ts';
import { longZeroAddress } from '../addresses.ts';
import type { LedgerState } from '../ledger-state.ts';
import { EvmRequestError } from '../types.ts';
import { address, bytes, encode } from './abi.ts';
import { canonicalGas } from './hts-gas.ts';
import {
  contractCallBody,
  hbarTransferBody,
  scheduleMessage,
  signatureMapOf,
  TOKEN_BURN_BODY,
  tokenCreateBody,
  tokenMintBody,
} from './testing/schedule-bodies.ts';
import { calldata } from './testing/system-evm.ts';
import { TWO_CALLS, twoCalls } from './testing/two-calls.ts';

const ED_ACCOUNT = 1001n;
const EC_ACCOUNT = 1002n;
const RECEIVER = 1003n;
const CONTRACT = 1004n;
/** ED_ACCOUNT pays and sends 1,000 tinybars to RECEIVER; executes once ED_ACCOUNT's key signs. */
const TRANSFER = 1010n;
/** The same transfer, waiting for its expiry. */
const WAITING = 1011n;
/** ED_ACCOUNT and EC_ACCOUNT each send 100 tinybars to RECEIVER; the ledger holds EC_ACCOUNT's signature. */
const HALF_SIGNED = 1012n;
/** CONTRACT pays and sends 500 tinybars to RECEIVER; CONTRACT has no admin key, so its ContractID key is needed. */
const CONTRACT_PAYS = 1013n;
/** A TokenBurn: a kind whose keys are not modelled here. */
const BURN = 1014n;
/** ED_ACCOUNT's call of STORING (which stores 1 in slot 0), with 50,000 gas. */
const CALL = 1015n;
const STORING = 1005n;
/** ED_ACCOUNT's TokenCreate with itself as treasury. */
const TOKEN = 1016n;
/** A fungible token whose supply key is ED_ACCOUNT's, and ED_ACCOUNT's schedule to mint 25 of it. */
const MINTED = 1017n;
const MINT = 1018n;
/** The number the run's first created entity takes. */
const NEXT = 1019n;

const edSecret = ed25519.utils.randomSecretKey();
const ED_PUBLIC = ed25519.getPublicKey(edSecret);
const ecSecret = secp256k1.utils.randomSecretKey();
const EC_PUBLIC = secp256k1.getPublicKey(ecSecret, true);
const BALANCE = 1_000_000n;
const ED_KEY = Buffer.concat([Buffer.from('1220', 'hex'), ED_PUBLIC]);

const latest = ledgerBlock(20n, GENESIS + 200n * SECOND);

const ledger = useEvmLedger(async (sql) => {
  await insertBlocks(sql, [latest]);
  await insertEntity(sql, 2n, GENESIS, { balance: 5_000_000_000n });
  await insertEntity(sql, ED_ACCOUNT, GENESIS, { balance: BALANCE, key: ED_KEY });
  await insertEntity(sql, EC_ACCOUNT, GENESIS, {
    balance: BALANCE,
    key: Buffer.concat([Buffer.from('3a21', 'hex'), EC_PUBLIC]),
  });
  await insertEntity(sql, RECEIVER, GENESIS, { balance: BALANCE });
  await insertEntity(sql, CONTRACT, GENESIS, { type: 'CONTRACT', balance: BALANCE });
  await insertEntity(sql, STORING, GENESIS, { type: 'CONTRACT' });
  await insertToken(sql, MINTED, GENESIS, { supply_key: ED_KEY, treasury_account_id: ED_ACCOUNT });
  await insertTokenAccount(sql, { account_id: ED_ACCOUNT, token_id: MINTED, balance: 1000 });
  const schedules = [
    [
      TRANSFER,
      ED_ACCOUNT,
      hbarTransferBody([
        [ED_ACCOUNT, -1000n],
        [RECEIVER, 1000n],
      ]),
      false,
    ],
    [
      WAITING,
      ED_ACCOUNT,
      hbarTransferBody([
        [ED_ACCOUNT, -1000n],
        [RECEIVER, 1000n],
      ]),
      true,
    ],
    [
      HALF_SIGNED,
      ED_ACCOUNT,
      hbarTransferBody([
        [ED_ACCOUNT, -100n],
        [EC_ACCOUNT, -100n],
        [RECEIVER, 200n],
      ]),
      false,
    ],
    [
      CONTRACT_PAYS,
      CONTRACT,
      hbarTransferBody([
        [CONTRACT, -500n],
        [RECEIVER, 500n],
      ]),
      false,
    ],
    [BURN, ED_ACCOUNT, TOKEN_BURN_BODY, false],
    [CALL, ED_ACCOUNT, contractCallBody(STORING, 50_000n, new Uint8Array()), false],
    [TOKEN, ED_ACCOUNT, tokenCreateBody(ED_ACCOUNT), false],
    [MINT, ED_ACCOUNT, tokenMintBody(MINTED, 25n), false],
  ] as const;
  for (const [id, payer, body, waitForExpiry] of schedules) {
    await insertEntity(sql, id, GENESIS, { type: 'SCHEDULE' });
    await insertRow(sql, 'schedule', {
      schedule_id: id,
      consensus_timestamp: GENESIS + SECOND,
      creator_account_id: payer,
      payer_account_id: payer,
      transaction_body: body,
      expiration_time: GENESIS + 3600n * SECOND,
      wait_for_expiry: waitForExpiry,
    });
  }
  await insertRow(sql, 'transaction_signature', {
    consensus_timestamp: GENESIS + SECOND,
    entity_id: HALF_SIGNED,
    public_key_prefix: Buffer.from(EC_PUBLIC),
    signature: Buffer.alloc(64, 1),
    type: 6,
  });
});

const HSS = longZeroAddress(0x16bn);
const code = (name: string) => BigInt(responseCodeByName(name) ?? -1);
const scheduleArg = (id: bigint) => encode(address(longZeroAddress(id)));

/** `signSchedule(schedule, map)` with ED_ACCOUNT's signature (or EC_ACCOUNT's) over the schedule's message. */
function signWith(schedule: bigint, signer: 'ed' | 'ec', message = scheduleMessage(schedule)): Uint8Array {
  const pair =
    signer === 'ed'
      ? { publicKey: ED_PUBLIC, field: 3, signature: ed25519.sign(message, edSecret) }
      : {
          publicKey: EC_PUBLIC,
          field: 6,
          signature: secp256k1.sign(keccak_256(message), ecSecret, { prehash: false }),
        };
  return calldata(
    'signSchedule(address,bytes)',
    encode(address(longZeroAddress(schedule)), bytes(signatureMapOf([pair]))),
  );
}

/** A recovery id as the big-endian bytes that follow r and s. */
const encodeV = (v: number) => (v > 0xff ? [v >> 8, v & 0xff] : [v]);

/** An account's balance in tinybars as the run left it. */
function balanceOf(system: Awaited<ReturnType<typeof systemEvmAt>>, num: bigint): Promise<bigint> {
  return (system.evm.stateManager as LedgerState).realBalance(new Address(longZeroAddress(num)));
}

describe('ScheduleSign through 0x16b', () => {
  it('executes a CryptoTransfer once a SignatureMap’s signature completes its keys, for the ScheduleSign gas', async () => {
    const system = await systemEvmAt(ledger.db, latest);
    const result = await system.call(HSS, signWith(TRANSFER, 'ed'));
    expect(returned(result).int(0)).toBe(code('SUCCESS'));
    expect(result.executionGasUsed).toBe(canonicalGas('SCHEDULE_SIGN'));
    expect(await balanceOf(system, ED_ACCOUNT)).toBe(BALANCE - 1000n);
    expect(await balanceOf(system, RECEIVER)).toBe(BALANCE + 1000n);
  });

  it('answers NO_NEW_VALID_SIGNATURES for a key the schedule does not need and for a signature that fails', async () => {
    const system = await systemEvmAt(ledger.db, latest);
    const unneeded = await system.call(HSS, signWith(TRANSFER, 'ec'));
    expect(returned(unneeded).int(0)).toBe(code('NO_NEW_VALID_SIGNATURES'));
    const forged = await system.call(HSS, signWith(TRANSFER, 'ed', scheduleMessage(TRANSFER + 1n)));
    expect(returned(forged).int(0)).toBe(code('NO_NEW_VALID_SIGNATURES'));
    expect(await balanceOf(system, RECEIVER)).toBe(BALANCE);
  });

  it('accepts an ECDSA signature with a recovery id of the chain, and halts for one of another chain', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    const message = scheduleMessage(HALF_SIGNED);
    const signature = secp256k1.sign(keccak_256(message), ecSecret, { prehash: false });
    const sign = (v: number) =>
      calldata(
        'signSchedule(address,bytes)',
        encode(
          address(longZeroAddress(HALF_SIGNED)),
          bytes(
            signatureMapOf([
              { publicKey: EC_PUBLIC, field: 6, signature: Uint8Array.from([...signature, ...encodeV(v)]) },
            ]),
          ),
        ),
      );
    // EIP-155 for chain 296: 35 + 2 × 296 = 627. EC_ACCOUNT's key is a signatory already (the ledger holds it).
    expect(returned(await call(HSS, sign(627))).int(0)).toBe(code('NO_NEW_VALID_SIGNATURES'));
    const otherChain = await call(HSS, sign(629), { gas: 70_000n });
    expect(otherChain.exceptionError).toBeDefined();
    expect(otherChain.executionGasUsed).toBe(70_000n);
  });

  it('halts, as a decoder failure does, for signature map bytes that do not parse', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    // A SignaturePair field whose length runs past the end of the bytes.
    const truncated = calldata(
      'signSchedule(address,bytes)',
      encode(address(longZeroAddress(TRANSFER)), bytes(Uint8Array.from([0x0a, 0x20, 0x01]))),
    );
    const result = await call(HSS, truncated, { gas: 70_000n });
    expect(result.exceptionError).toBeDefined();
    expect(result.executionGasUsed).toBe(70_000n);
  });

  it('only collects the signatures of a schedule that waits for its expiry, once each', async () => {
    const system = await systemEvmAt(ledger.db, latest);
    await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
    const sign = { to: HSS, data: signWith(WAITING, 'ed') };
    const first = await system.call(HSS, sign.data);
    expect(returned(first).int(0)).toBe(code('SUCCESS'));
    expect(await balanceOf(system, RECEIVER)).toBe(BALANCE);
    const again = await system.call(longZeroAddress(CONTRACT), twoCalls(sign, sign));
    expect(returned(again).int(0)).toBe(code('NO_NEW_VALID_SIGNATURES'));
  });

  it('counts the signatures the ledger holds for the schedule', async () => {
    const system = await systemEvmAt(ledger.db, latest);
    const result = await system.call(HSS, signWith(HALF_SIGNED, 'ed'));
    expect(returned(result).int(0)).toBe(code('SUCCESS'));
    expect(await balanceOf(system, EC_ACCOUNT)).toBe(BALANCE - 100n);
    expect(await balanceOf(system, RECEIVER)).toBe(BALANCE + 200n);
  });

  it('lets a contract’s authorizeSchedule complete what its ContractID key pays, then answers it executed', async () => {
    const system = await systemEvmAt(ledger.db, latest);
    await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
    const authorize = { to: HSS, data: calldata('authorizeSchedule(address)', scheduleArg(CONTRACT_PAYS)) };
    const result = await system.call(longZeroAddress(CONTRACT), twoCalls(authorize, authorize));
    expect(returned(result).int(0)).toBe(code('SCHEDULE_ALREADY_EXECUTED'));
    expect(await balanceOf(system, CONTRACT)).toBe(BALANCE - 500n);
    expect(await balanceOf(system, RECEIVER)).toBe(BALANCE + 500n);
    const byAccount = await system.call(HSS, authorize.data, { caller: longZeroAddress(ED_ACCOUNT) });
    expect(returned(byAccount).int(0)).toBe(code('NO_NEW_VALID_SIGNATURES'));
  });

  it('runs a scheduled ContractCall from its payer once the payer signs, its writes kept', async () => {
    const system = await systemEvmAt(ledger.db, latest);
    await system.deploy(longZeroAddress(STORING), Uint8Array.from([0x60, 0x01, 0x60, 0x00, 0x55, 0x00]));
    const result = await system.call(HSS, signWith(CALL, 'ed'));
    expect(returned(result).int(0)).toBe(code('SUCCESS'));
    const slot = await system.evm.stateManager.getStorage(new Address(longZeroAddress(STORING)), new Uint8Array(32));
    expect(Buffer.from(slot).toString('hex')).toBe('01');
  });

  it('creates the token of a TokenCreate the ledger holds once its payer and treasury signs', async () => {
    const system = await systemEvmAt(ledger.db, latest);
    const result = await system.call(HSS, signWith(TOKEN, 'ed'));
    expect(returned(result).int(0)).toBe(code('SUCCESS'));
    const created = await system.evm.stateManager.getCode(new Address(longZeroAddress(NEXT)));
    expect(created.length).toBeGreaterThan(0);
  });

  it('mints a TokenMint’s amount to the treasury once the supply key signs, which later reads of the call see', async () => {
    const system = await systemEvmAt(ledger.db, latest, [{ kind: 'TOKEN', address: longZeroAddress(MINTED) }]);
    await system.deploy(longZeroAddress(CONTRACT), TWO_CALLS);
    const supply = { to: longZeroAddress(MINTED), data: calldata('totalSupply()') };
    const result = await system.call(
      longZeroAddress(CONTRACT),
      twoCalls({ to: HSS, data: signWith(MINT, 'ed') }, supply),
    );
    expect(returned(result).uint(0)).toBe(1025n);
  });

  it('answers 501 for a schedule of a kind whose signing is not modelled', async () => {
    const { call } = await systemEvmAt(ledger.db, latest);
    await expect(call(HSS, signWith(BURN, 'ed'))).rejects.toEqual(new EvmRequestError(501, 'Not Implemented'));
  });
});
