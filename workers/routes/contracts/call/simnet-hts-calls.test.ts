/**
 * The simulated network's own HTS system calls, replayed through POST /api/v1/contracts/call in workerd: its HtsCaller
 * contracts forward associations, transfers (of units and NFTs, and of hbar with units by cryptoTransfer) and approvals
 * for their own account to 0x167, and mints, burns and wipes (of units, and of NFTs with metadata or serials), pauses,
 * freezes and KYC changes of tokens whose keys name them, and creations of fungible tokens and NFT collections (whose
 * supply key names the contract) paid with the value sent, answered by the simulator's ledger model
 * (simulator/evm/hts-system.ts). For every such call the ledger recorded, the same sender, data and value at the block
 * before it must answer the recorded call_result, and the estimate must lie within 100-110% of the gas the ledger's EVM
 * used; a created token is served by /api/v1/tokens/{id} with the contract as its treasury, and an NFT collection the
 * contracts mint has on /api/v1/tokens/{id}/nfts the serials, owners and metadata of the ledger, and its total supply.
 * The simulator makes each as the first transaction of its record file, so the block before it holds the state it ran
 * on. The ledger is written in two runs, the second continuing the first (`--continue`).
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3.js';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { LedgerSnapshot } from '../../../../simulator/ledger/export.ts';
import { postCall } from '../../../../test/harness/contracts-call-client.ts';
import { canonicalAddress, longZero } from '../../../../test/harness/simnet-reads.ts';
import { ingestStreams, simulateStages } from '../../../../test/harness/simnet-stages.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';

const CONTRACTCALL = 7;
const ASSOCIATE = 'associateToken(address,address)';
const DISSOCIATE = 'dissociateToken(address,address)';
const TRANSFER = 'transferToken(address,address,address,int64)';
const TRANSFER_TOKENS = 'transferTokens(address,address[],int64[])';
const TRANSFER_NFT = 'transferNFT(address,address,address,int64)';
const TRANSFER_NFTS = 'transferNFTs(address,address[],address[],int64[])';
const APPROVE = 'approve(address,address,uint256)';
const MINT = 'mintToken(address,int64,bytes[])';
const BURN = 'burnToken(address,int64,int64[])';
const WIPE = 'wipeTokenAccount(address,address,int64)';
const WIPE_NFT = 'wipeTokenAccountNFT(address,address,int64[])';
const DELETE = 'deleteToken(address)';
const PAUSE = 'pauseToken(address)';
const UNPAUSE = 'unpauseToken(address)';
const FREEZE = 'freezeToken(address,address)';
const UNFREEZE = 'unfreezeToken(address,address)';
const GRANT_KYC = 'grantTokenKyc(address,address)';
const REVOKE_KYC = 'revokeTokenKyc(address,address)';
const HEDERA_TOKEN =
  '(string,string,address,string,bool,int64,bool,(uint256,(bool,address,bytes,bytes,address))[],(int64,address,int64))';
const CREATE = `createFungibleToken(${HEDERA_TOKEN},int64,int32)`;
const CREATE_NFT = `createNonFungibleToken(${HEDERA_TOKEN})`;
const CRYPTO_TRANSFER =
  'cryptoTransfer(((address,int64,bool)[]),(address,(address,int64,bool)[],(address,address,int64,bool)[])[])';
const SELECTORS = new Map(
  [
    ASSOCIATE,
    DISSOCIATE,
    TRANSFER,
    TRANSFER_TOKENS,
    TRANSFER_NFT,
    TRANSFER_NFTS,
    APPROVE,
    MINT,
    BURN,
    WIPE,
    WIPE_NFT,
    DELETE,
    PAUSE,
    UNPAUSE,
    FREEZE,
    UNFREEZE,
    GRANT_KYC,
    REVOKE_KYC,
    CREATE,
    CREATE_NFT,
    CRYPTO_TRANSFER,
  ].map((signature) => [
    `0x${Buffer.from(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4)).toString('hex')}`,
    signature,
  ]),
);
const INSUFFICIENT_TX_FEE = 9n;
const SUCCESS = 22n;
const TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT = 194n;
const INSUFFICIENT_TOKEN_BALANCE = 178n;
const TOKEN_NOT_ASSOCIATED_TO_ACCOUNT = 184n;

/** A mint or a burn of NFTs (the amount, the second argument, is zero) apart from one of fungible units. */
const variant = (signature: string, data: string) =>
  (signature === MINT || signature === BURN) && BigInt(`0x${data.slice(74, 138)}`) === 0n
    ? `${signature} NFT`
    : signature;

interface RecordedCall {
  readonly timestamp: string;
  readonly contract: string;
  readonly block: bigint;
  readonly data: string;
  readonly amount: string;
  readonly result: string;
}

const out = mkdtempSync(path.join(tmpdir(), 'simnet-hts-calls-'));
let model: LedgerSnapshot;
let recorded: RecordedCall[] = [];

const { worker } = registerWorkerSuite({
  async seed(db) {
    const stages = await simulateStages({
      out,
      seed: 'hts-calls',
      tps: 6,
      // Two stages: the second continues the first's model (its HtsCallers and the tokens they manage).
      files: [200, 200],
      // Few transactions a file, most files opening with a system call (the HTS family calls only there); at 6 a
      // second, a 2-second file without any transaction (which the ingest cannot take) is a one in 160,000 chance.
      weights: { htsCall: 2000, submitMessage: 100, hbarTransfer: 100, createToken: 30 },
    });
    const stage = stages.at(-1);
    if (!stage) throw new Error('no stage was simulated');
    model = stage.model;
    await ingestStreams(out, db.url);
    const callers = model.contracts.filter((c) => c.kind === 'HtsCaller').map((c) => BigInt(c.id.split('.')[2] ?? 0));
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      type Row = Omit<RecordedCall, 'block'> & { readonly block: string };
      const { rows } = await client.query<Row>(
        // Shard and realm are 0 on the simulated network: an encoded entity id is its number.
        `select r.consensus_timestamp::text as timestamp, '0.0.' || r.contract_id as contract, f.index::text as block,
                '0x' || encode(r.function_parameters, 'hex') as data, coalesce(r.amount, 0)::text as amount,
                '0x' || encode(r.call_result, 'hex') as result
           from contract_result r
           join transaction t on t.consensus_timestamp = r.consensus_timestamp and t.type = $1
           join record_file f on r.consensus_timestamp between f.consensus_start and f.consensus_end
          where r.contract_id = any($2::bigint[])
          order by r.consensus_timestamp`,
        [CONTRACTCALL, callers.map(String)],
      );
      recorded = rows.map((row) => ({ ...row, block: BigInt(row.block) }));
    } finally {
      await client.end();
    }
  },
  timeout: 600_000,
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

const post = (body: object) => postCall(worker, body);

describe('HTS system calls the simulated network recorded', () => {
  it('answers each at the block before it as recorded, and estimates it within 100-110% of its gas', async () => {
    const results = new Map(model.contractResults.map((r) => [r.consensusTimestamp, r]));
    const accounts = new Map(model.accounts.map((a) => [a.id, a]));
    const seen = new Map<string, number>();
    const nftTokens = new Set<string>();
    const supplied = new Set<string>();
    const deleted = new Set<string>();
    const failures: string[] = [];
    for (const call of recorded) {
      const result = results.get(call.timestamp);
      const sender = result && accounts.get(result.sender);
      if (!result || !sender) throw new Error(`${call.timestamp}: not in the ledger model`);
      const request = {
        from: canonicalAddress(sender),
        to: longZero(call.contract),
        data: call.data,
        value: Number(call.amount),
        block: `0x${(call.block - 1n).toString(16)}`,
      };
      const signature = SELECTORS.get(call.data.slice(0, 10)) ?? call.data.slice(0, 10);
      const name = `${call.timestamp} ${signature}`;
      // The response code is the first word of the output (an approval adds a second, its success flag).
      const outcome = `${variant(signature, call.data)} ${BigInt(call.result.slice(0, 66))}`;
      seen.set(outcome, (seen.get(outcome) ?? 0) + 1);
      const token = `0.0.${BigInt(`0x${call.data.slice(10, 74)}`)}`;
      if ([MINT, BURN, WIPE, WIPE_NFT].includes(signature)) supplied.add(token);
      if (variant(signature, call.data) === `${MINT} NFT`) nftTokens.add(token);
      if (signature === DELETE && BigInt(call.result) === SUCCESS) deleted.add(token);
      const answer = await post(request);
      if (answer.status !== 200 || answer.body.result !== call.result) {
        failures.push(`${name}: ${answer.status} ${JSON.stringify(answer.body)}, recorded ${call.result}`);
        continue;
      }
      if ((signature === CREATE || signature === CREATE_NFT) && BigInt(call.result.slice(0, 66)) === SUCCESS) {
        const token = `0.0.${BigInt(`0x${call.result.slice(66)}`)}`;
        const response = await fetch(`${worker.baseUrl}/api/v1/tokens/${token}`);
        const body = (await response.json()) as { treasury_account_id?: string };
        if (response.status !== 200 || body.treasury_account_id !== call.contract) {
          failures.push(`${name}: token ${token} answered ${response.status} ${JSON.stringify(body)}`);
        }
      }
      const estimate = await post({ ...request, estimate: true });
      const gas = BigInt(estimate.body.result ?? '0');
      const used = BigInt(result.evmGasUsed);
      if (estimate.status !== 200 || gas < used || gas * 100n > used * 110n) {
        failures.push(`${name}: estimate ${estimate.status} ${gas}, the ledger's EVM used ${used}`);
      }
    }
    expect(failures, `${failures.length} of ${recorded.length} calls`).toEqual([]);
    // The mints', burns', wipes' and transfers' child records made the mirror's NFTs those of the ledger.
    for (const token of [...nftTokens].filter((t) => !deleted.has(t))) {
      const expected = model.nfts
        .filter((nft) => nft.token === token && !nft.deleted)
        .map((nft) => ({ serial: Number(nft.serial), owner: nft.owner, metadata: nft.metadata }));
      const response = await fetch(`${worker.baseUrl}/api/v1/tokens/${token}/nfts?order=asc&limit=100`);
      const body = (await response.json()) as {
        nfts: { serial_number: number; account_id: string | null; deleted: boolean; metadata: string }[];
      };
      const nfts = body.nfts
        .filter((nft) => !nft.deleted)
        .map((nft) => ({
          serial: nft.serial_number,
          owner: nft.account_id,
          metadata: Buffer.from(nft.metadata, 'base64').toString('hex'),
        }));
      expect(nfts, token).toEqual(expected);
    }
    // The receipts' new total supply of mints, burns and wipes made the mirror's supply that of the ledger.
    for (const token of supplied) {
      const response = await fetch(`${worker.baseUrl}/api/v1/tokens/${token}`);
      const info = (await response.json()) as { total_supply: string; deleted: boolean };
      expect(info.total_supply, token).toBe(model.tokens.find((t) => t.id === token)?.totalSupply);
      // A deleteToken's child record marks the token deleted.
      expect(info.deleted, token).toBe(deleted.has(token));
    }
    const wanted = [
      `${ASSOCIATE} ${SUCCESS}`,
      `${ASSOCIATE} ${TOKEN_ALREADY_ASSOCIATED_TO_ACCOUNT}`,
      `${DISSOCIATE} ${SUCCESS}`,
      `${TRANSFER} ${SUCCESS}`,
      `${TRANSFER} ${INSUFFICIENT_TOKEN_BALANCE}`,
      `${TRANSFER} ${TOKEN_NOT_ASSOCIATED_TO_ACCOUNT}`,
      `${APPROVE} ${SUCCESS}`,
      `${MINT} ${SUCCESS}`,
      `${BURN} ${SUCCESS}`,
      `${MINT} NFT ${SUCCESS}`,
      `${BURN} NFT ${SUCCESS}`,
      `${TRANSFER_NFT} ${SUCCESS}`,
      `${TRANSFER_NFTS} ${SUCCESS}`,
      `${TRANSFER_TOKENS} ${SUCCESS}`,
      `${WIPE} ${SUCCESS}`,
      `${WIPE_NFT} ${SUCCESS}`,
      `${DELETE} ${SUCCESS}`,
      `${PAUSE} ${SUCCESS}`,
      `${UNPAUSE} ${SUCCESS}`,
      `${FREEZE} ${SUCCESS}`,
      `${UNFREEZE} ${SUCCESS}`,
      `${GRANT_KYC} ${SUCCESS}`,
      `${REVOKE_KYC} ${SUCCESS}`,
      `${CREATE} ${SUCCESS}`,
      `${CREATE} ${INSUFFICIENT_TX_FEE}`,
      `${CREATE_NFT} ${SUCCESS}`,
      `${CRYPTO_TRANSFER} ${SUCCESS}`,
    ];
    expect(
      wanted.filter((outcome) => !seen.has(outcome)),
      `recorded: ${[...seen].map(([outcome, n]) => `${outcome} x${n}`).join(', ')}`,
    ).toEqual([]);
  }, 300_000);
});
