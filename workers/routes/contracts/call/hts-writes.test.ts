/**
 * HTS writes through the Worker in workerd: an ERC-20 transfer and approval sent to a token's address, a contract
 * that writes and then reads in one call, the node's revert for a failed dispatch (a credit to a long-zero address
 * that names no account among them), and estimates of them.
 */
import { describe, expect, it } from 'vitest';
import { callOf, GENESIS, openWorkerDriver, TESTNET_SETTINGS } from '../../../../test/harness/evm-session.ts';
import { insertRow } from '../../../../test/harness/factories.ts';
import { insertContract } from '../../../../test/harness/factories-contracts.ts';
import { FUNGIBLE, HOLDER, SPENDER, seedTokenLedger } from '../../../../test/harness/factories-evm-system.ts';
import { insertEntity, insertToken, insertTokenAccount } from '../../../../test/harness/factories-tokens.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';
import { longZeroAddress } from '../../../evm/addresses.ts';
import { openSession } from '../../../evm/session.ts';
import { address, array, bool, encode, int, tuple } from '../../../evm/system/abi.ts';
import { calldata } from '../../../evm/system/testing/system-evm.ts';
import { TWO_CALLS, twoCalls } from '../../../evm/system/testing/two-calls.ts';
import { resolveBlock } from './resolve-block.ts';

const CONTRACT = 1700n;
const RECEIVER = 1800n;
/** A token whose fixed fee of 4 Gold goes to the receiver; Gold's own fees are then due on that payment. */
const TOLL = 2800n;

const { db, worker } = registerWorkerSuite({
  async seed({ sql }) {
    await seedTokenLedger(sql);
    // The contract's hbar pays Gold's fixed 5 ℏ custom fee on its transfers.
    await insertContract(
      sql,
      { id: CONTRACT, created_timestamp: GENESIS, balance: 1000n },
      { runtime_bytecode: Buffer.from(TWO_CALLS) },
    );
    await insertEntity(sql, RECEIVER, GENESIS);
    await insertTokenAccount(sql, { account_id: CONTRACT, token_id: FUNGIBLE, balance: 100, freeze_status: 2 });
    await insertTokenAccount(sql, { account_id: RECEIVER, token_id: FUNGIBLE, balance: 0, freeze_status: 2 });
    // The collector of Gold's fractional fee, which the contract's transfers pay.
    await insertTokenAccount(sql, { account_id: SPENDER, token_id: FUNGIBLE, balance: 0, freeze_status: 2 });
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
  },
});

const hex = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;
const longZero = (num: bigint) => hex(longZeroAddress(num));
const transfer = (to: bigint, amount: bigint) =>
  calldata('transfer(address,uint256)', encode(address(longZeroAddress(to)), int(amount)));

let clientNumber = 0;

interface Reply {
  result?: string;
  _status?: { messages: { message: string; data: string }[] };
}

async function post(request: object): Promise<{ status: number; body: Reply }> {
  await worker.setState({ config: { edge: { rateLimit: { enabled: false } } } });
  const response = await fetch(`${worker.baseUrl}/api/v1/contracts/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${++clientNumber}` },
    body: JSON.stringify(request),
  });
  return { status: response.status, body: (await response.json()) as Reply };
}

/** The first error message of a refused call. */
function firstMessage(body: Reply) {
  const message = body._status?.messages[0];
  if (!message) throw new Error(`no error message in ${JSON.stringify(body)}`);
  return message;
}

describe('HTS writes in POST /api/v1/contracts/call', () => {
  it('answers an ERC-20 transfer sent to the token’s address with true', async () => {
    const response = await post({ from: longZero(HOLDER), to: longZero(FUNGIBLE), data: hex(transfer(RECEIVER, 40n)) });
    expect([response.status, response.body]).toEqual([200, { result: `0x${'1'.padStart(64, '0')}` }]);
  });

  it('shows a contract the balance its own transfer made, in the same call', async () => {
    const data = twoCalls(
      { to: longZeroAddress(FUNGIBLE), data: transfer(RECEIVER, 60n) },
      {
        to: longZeroAddress(FUNGIBLE),
        data: calldata('balanceOf(address)', encode(address(longZeroAddress(RECEIVER)))),
      },
    );
    const response = await post({ to: longZero(CONTRACT), data: hex(data) });
    expect([response.status, response.body]).toEqual([200, { result: `0x${'3c'.padStart(64, '0')}` }]);
  });

  it('charges a fee paid in another token that token’s own fees before the call reads balances', async () => {
    const data = twoCalls(
      { to: longZeroAddress(TOLL), data: transfer(RECEIVER, 1n) },
      {
        to: longZeroAddress(FUNGIBLE),
        data: calldata('balanceOf(address)', encode(address(longZeroAddress(CONTRACT)))),
      },
    );
    const response = await post({ to: longZero(CONTRACT), data: hex(data) });
    // 100 Gold less Toll's 4 and, on those 4, Gold's net-of-transfers minimum of 2: 94.
    expect([response.status, response.body]).toEqual([200, { result: `0x${'5e'.padStart(64, '0')}` }]);
  });

  it('answers a failed transfer as CONTRACT_REVERT_EXECUTED with the status’s code as data', async () => {
    const response = await post({
      from: longZero(HOLDER),
      to: longZero(FUNGIBLE),
      data: hex(transfer(RECEIVER, 701n)),
    });
    expect(response.status).toBe(400);
    const message = firstMessage(response.body);
    expect(message.message).toBe('CONTRACT_REVERT_EXECUTED');
    // INSUFFICIENT_TOKEN_BALANCE = 178.
    expect(message.data).toBe(`0x${'b2'.padStart(64, '0')}`);
  });

  it('reverts an ERC-20 transfer to a long-zero address that names no account with INVALID_ALIAS_KEY', async () => {
    const response = await post({ from: longZero(HOLDER), to: longZero(FUNGIBLE), data: hex(transfer(4321n, 5n)) });
    expect(response.status).toBe(400);
    const message = firstMessage(response.body);
    expect(message.message).toBe('CONTRACT_REVERT_EXECUTED');
    // INVALID_ALIAS_KEY = 282.
    expect(message.data).toBe(`0x${'11a'.padStart(64, '0')}`);
  });

  it('moves hbar with cryptoTransfer v2 in the EVM’s own balances, and refuses more than the sender has', async () => {
    const hbar = (amount: bigint, to: bigint) =>
      hex(
        calldata(
          'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])',
          encode(
            tuple(
              array([
                tuple(address(longZeroAddress(HOLDER)), int(-amount), bool(false)),
                tuple(address(longZeroAddress(to)), int(amount), bool(false)),
              ]),
            ),
            array([]),
          ),
        ),
      );
    const hts = hex(longZeroAddress(0x167n));
    const moved = await post({ from: longZero(HOLDER), to: hts, data: hbar(10n, RECEIVER) });
    expect([moved.status, moved.body]).toEqual([200, { result: `0x${'16'.padStart(64, '0')}` }]);
    // A non-payer account shows at least 10^17 tinybars; the payer's real balance is 100 only when it is validated.
    const short = await post({ from: longZero(HOLDER), to: hts, data: hbar(10n ** 18n, RECEIVER) });
    expect([short.status, short.body]).toEqual([200, { result: `0x${'1c'.padStart(64, '0')}` }]);
    const toSystem = await post({ from: longZero(HOLDER), to: hts, data: hbar(10n, 98n) });
    expect([toSystem.status, firstMessage(toSystem.body).data]).toEqual([400, `0x${'23'.padStart(64, '0')}`]);
  });

  it('estimates an ERC-20 transfer and an approval within 100-110% of the gas the call uses', async () => {
    const driver = await openWorkerDriver(db.url);
    try {
      const block = await resolveBlock(driver.db, { kind: 'latest' });
      if (!block) throw new Error('no block');
      const approve = calldata('approve(address,uint256)', encode(address(longZeroAddress(RECEIVER)), int(5n)));
      for (const data of [transfer(RECEIVER, 40n), approve]) {
        const session = openSession({ db: driver.db, block, settings: TESTNET_SETTINGS });
        const outcome = await session.run(callOf(longZeroAddress(FUNGIBLE), data, { from: longZeroAddress(HOLDER) }));
        expect(outcome.ok).toBe(true);
        const response = await post({
          from: longZero(HOLDER),
          to: longZero(FUNGIBLE),
          data: hex(data),
          estimate: true,
        });
        const estimate = BigInt(response.body.result ?? '');
        expect(estimate * 100n).toBeGreaterThanOrEqual(outcome.gasUsed * 100n);
        expect(estimate * 100n).toBeLessThanOrEqual(outcome.gasUsed * 110n);
        const withEstimate = await post({
          from: longZero(HOLDER),
          to: longZero(FUNGIBLE),
          data: hex(data),
          gas: Number(estimate),
        });
        expect(withEstimate.status).toBe(200);
      }
    } finally {
      await driver.close();
    }
  });
});

describe('a function the token service does not have, in POST /api/v1/contracts/call', () => {
  // The consensus node answers a selector none of its translators claims with an empty success (0.73).
  const unknown = calldata('burnAll(address)', encode(address(longZeroAddress(FUNGIBLE))));
  const hts = longZeroAddress(0x167n);

  it('succeeds with no output when sent to 0x167', async () => {
    const response = await post({ from: longZero(HOLDER), to: hex(hts), data: hex(unknown) });
    expect([response.status, response.body]).toEqual([200, { result: '0x' }]);
  });

  it('succeeds with no output when sent to a token’s address', async () => {
    const mint = calldata('mint(address,uint256)', encode(address(longZeroAddress(HOLDER)), int(1n)));
    const response = await post({ from: longZero(HOLDER), to: longZero(FUNGIBLE), data: hex(mint) });
    expect([response.status, response.body]).toEqual([200, { result: '0x' }]);
  });

  it('succeeds inside a contract, which goes on to its next call', async () => {
    const balance = calldata('balanceOf(address)', encode(address(longZeroAddress(CONTRACT))));
    for (const first of [
      { to: hts, data: unknown },
      { to: longZeroAddress(FUNGIBLE), data: calldata('mint(address,uint256)', encode(address(hts), int(1n))) },
    ]) {
      const data = twoCalls(first, { to: longZeroAddress(FUNGIBLE), data: balance });
      const response = await post({ to: longZero(CONTRACT), data: hex(data) });
      expect([response.status, response.body]).toEqual([200, { result: `0x${'64'.padStart(64, '0')}` }]);
    }
  });
});
