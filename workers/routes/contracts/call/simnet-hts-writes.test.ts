/**
 * HTS writes through POST /api/v1/contracts/call on a ledger the simulated network wrote and the ingest read, served
 * by the Worker in workerd: for the HTS tokens of the ledger model, an ERC-20 transfer and approval by a holder to
 * another associated account answer true and a transfer beyond the balance reverts with INSUFFICIENT_TOKEN_BALANCE;
 * an NFT's owner moves it with transferFrom while an account without an allowance cannot; every estimate lies within
 * 100-110% of the gas the call uses.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bytesFromHex, hexOfBytes } from '../../../../db/bytea.ts';
import type { LedgerSnapshot } from '../../../../simulator/ledger/export.ts';
import { postCall } from '../../../../test/harness/contracts-call-client.ts';
import { callOf, openWorkerDriver, TESTNET_SETTINGS } from '../../../../test/harness/evm-session.ts';
import { canonicalAddress, longZero } from '../../../../test/harness/simnet-reads.ts';
import { ingestStreams, simulateStages } from '../../../../test/harness/simnet-stages.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';
import { openSession } from '../../../evm/session.ts';
import { address, encode, int } from '../../../evm/system/abi.ts';
import { calldata } from '../../../evm/system/testing/system-evm.ts';
import { resolveBlock } from './resolve-block.ts';

/** Tokens (and NFTs) tried: enough to meet treasuries and other holders, few enough for a shared machine. */
const SAMPLE = 8;
const INSUFFICIENT_TOKEN_BALANCE = 178n;
const SPENDER_DOES_NOT_HAVE_ALLOWANCE = 292n;

const out = mkdtempSync(path.join(tmpdir(), 'simnet-hts-'));
let model: LedgerSnapshot;

const { db, worker } = registerWorkerSuite({
  async seed(database) {
    const [stage] = await simulateStages({
      out,
      seed: 'hts-writes',
      tps: 40,
      files: [4],
      weights: { submitMessage: 20, hbarTransfer: 20, mint: 80, nftTransfer: 40, approve: 40 },
    });
    if (!stage) throw new Error('no stage');
    model = stage.model;
    await ingestStreams(out, database.url);
  },
  timeout: 900_000,
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

type Account = LedgerSnapshot['accounts'][number];

const post = (body: object) => postCall(worker, body);

const word = (value: bigint) => value.toString(16).padStart(64, '0');
const accountOf = (id: string): Account | undefined => model.accounts.find((a) => a.id === id);
const associated = (token: string, except: readonly string[]) =>
  model.accounts.find((a) => !except.includes(a.id) && a.tokens.includes(token));
const addressArg = (account: Account) => address(bytesFromHex(canonicalAddress(account).slice(2)));

/** The estimate of `request` and the gas the call uses at latest, run through a session of its own. */
async function estimateAndGasUsed(request: { from: string; to: string; data: string }): Promise<[bigint, bigint]> {
  const driver = await openWorkerDriver(db.url);
  try {
    const block = await resolveBlock(driver.db, { kind: 'latest' });
    if (!block) throw new Error('no block');
    const session = openSession({ db: driver.db, block, settings: TESTNET_SETTINGS });
    const outcome = await session.run(
      callOf(bytesFromHex(request.to.slice(2)), bytesFromHex(request.data.slice(2)), {
        from: bytesFromHex(request.from.slice(2)),
      }),
    );
    const estimate = await post({ ...request, estimate: true });
    return [BigInt(estimate.body.result ?? '0'), outcome.gasUsed];
  } finally {
    await driver.close();
  }
}

describe('HTS writes on the simulated network', () => {
  it('transfers and approves fungible tokens as their holders, and refuses a transfer beyond the balance', async () => {
    const cases = model.tokenBalances
      .filter(
        (b) => BigInt(b.balance) > 0n && model.tokens.some((t) => t.id === b.token && t.type === 'FUNGIBLE_COMMON'),
      )
      .slice(0, SAMPLE);
    let tried = 0;
    for (const holding of cases) {
      const holder = accountOf(holding.account);
      const receiver = associated(holding.token, [holding.account]);
      if (!holder || !receiver) continue;
      tried++;
      const from = canonicalAddress(holder);
      const to = longZero(holding.token);
      const transfer = (amount: bigint) =>
        `0x${hexOfBytes(calldata('transfer(address,uint256)', encode(addressArg(receiver), int(amount))))}`;
      const approve = `0x${hexOfBytes(calldata('approve(address,uint256)', encode(addressArg(receiver), int(5n))))}`;
      for (const data of [transfer(1n), approve]) {
        expect(await post({ from, to, data }), `${holding.token} ${data.slice(0, 10)}`).toEqual({
          status: 200,
          body: { result: `0x${word(1n)}` },
        });
        const [estimate, gasUsed] = await estimateAndGasUsed({ from, to, data });
        expect(estimate * 100n).toBeGreaterThanOrEqual(gasUsed * 100n);
        expect(estimate * 100n).toBeLessThanOrEqual(gasUsed * 110n);
      }
      const beyond = await post({ from, to, data: transfer(BigInt(holding.balance) + 1n) });
      expect([beyond.status, beyond.body._status?.messages[0]?.data]).toEqual([
        400,
        `0x${word(INSUFFICIENT_TOKEN_BALANCE)}`,
      ]);
    }
    expect(tried).toBeGreaterThan(1);
  });

  it('moves an NFT for its owner with transferFrom, and not for an account without an allowance', async () => {
    const nfts = model.nfts.filter((n) => n.owner !== null && !n.deleted).slice(0, SAMPLE);
    let tried = 0;
    for (const nft of nfts) {
      const owner = accountOf(nft.owner ?? '');
      const receiver = associated(nft.token, [nft.owner ?? '']);
      const stranger = model.accounts.find(
        (a) =>
          a.id !== nft.owner &&
          a.id !== nft.spender &&
          !model.nftApprovalsForAll.some((x) => x.owner === nft.owner && x.spender === a.id && x.token === nft.token),
      );
      if (!owner || !receiver || !stranger) continue;
      tried++;
      const data = `0x${hexOfBytes(
        calldata(
          'transferFrom(address,address,uint256)',
          encode(addressArg(owner), addressArg(receiver), int(BigInt(nft.serial))),
        ),
      )}`;
      const to = longZero(nft.token);
      expect(await post({ from: canonicalAddress(owner), to, data })).toEqual({ status: 200, body: { result: '0x' } });
      const refused = await post({ from: canonicalAddress(stranger), to, data });
      expect([refused.status, refused.body._status?.messages[0]?.data]).toEqual([
        400,
        `0x${word(SPENDER_DOES_NOT_HAVE_ALLOWANCE)}`,
      ]);
    }
    expect(tried).toBeGreaterThan(1);
  });
});
