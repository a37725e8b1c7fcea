/**
 * POST /api/v1/contracts/call on a ledger the simulated network wrote in four stages (continued with `--continue`)
 * and the ingest read, served by the Worker in workerd: every answer must be what the ledger model says at the
 * block asked about (each stage's last block, and `latest`), and every estimate of a recorded contract transaction
 * must lie within 100-110% of the smallest gas at which the call does what it does with all the gas.
 */

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { postCall } from '../../../../test/harness/contracts-call-client.ts';
import { canonicalAddress, longZero, type ModelRead, modelReads } from '../../../../test/harness/simnet-reads.ts';
import { ingestStreams, type SimnetStage, simulateStages } from '../../../../test/harness/simnet-stages.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';

const CONTRACTCREATEINSTANCE = 8;
const SUCCESS = 22;
/** EIP-7702: the intrinsic gas of an authorization, and the refund when its authority already exists. */
const AUTHORIZATION_GAS = 25_000n;
const AUTHORIZATION_REFUND = 12_500n;
/** Concurrent requests: enough to keep the Worker busy, few enough for a shared machine. */
const PARALLEL = 6;

interface RecordedCall {
  readonly timestamp: string;
  readonly contract: string;
  readonly block: bigint;
  readonly data: string;
  readonly amount: string;
  readonly errorMessage: string | null;
  /** A creation: it touches its contract, but is not estimated. */
  readonly create: boolean;
  /** How many EIP-7702 authorizations its Ethereum transaction carried. */
  readonly authorizations: number;
  /** Its sender was created in its block, so is not there at the block before. */
  readonly senderNew: boolean;
}

/** An account an applied EIP-7702 authorization delegated (or cleared), by the transaction at `timestamp`. */
interface Delegated {
  readonly authority: string;
  readonly timestamp: string;
  readonly block: bigint;
  /**
   * Whether the mirror applied it: a child of an Ethereum transaction that failed counts as failed (the importer's
   * RecordItem.parseSuccess), though the ledger model, like EIP-7702, keeps the delegation of a reverted call.
   */
  readonly mirrored: boolean;
}

const out = mkdtempSync(path.join(tmpdir(), 'simnet-call-'));
let stages: SimnetStage[] = [];
let recorded: RecordedCall[] = [];
let delegated: Delegated[] = [];
/** The first record file: a call in it has no block before it to estimate at. */
let firstBlock = 0n;

const { worker } = registerWorkerSuite({
  async seed(db) {
    stages = await simulateStages({
      out,
      seed: 'contracts-call',
      tps: 60,
      files: [2, 3, 3, 3],
      // Topic messages and hbar transfers, most of the default mix, give contracts/call nothing to read: fewer of
      // them, and more approvals (a few of which are for all of an NFT collection), leave the volume to what it
      // reads. With the default mix, approvals for all and type 4 calls to estimate were few or none.
      weights: {
        submitMessage: 40,
        hbarTransfer: 40,
        callContract: 60,
        ethereumTransaction: 60,
        deployContract: 6,
        mint: 60,
        nftTransfer: 80,
        approve: 160,
      },
    });
    await ingestStreams(out, db.url);
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      type Row = Omit<RecordedCall, 'block' | 'create'> & { readonly block: string; readonly type: number };
      const { rows } = await client.query<Row>(
        // Shard and realm are 0 on the simulated network: an encoded entity id is its number.
        `select r.consensus_timestamp::text as timestamp, '0.0.' || r.contract_id as contract, f.index::text as block,
                '0x' || encode(r.function_parameters, 'hex') as data, coalesce(r.amount, 0)::text as amount,
                r.error_message as "errorMessage", t.type,
                coalesce(jsonb_array_length(e.authorization_list), 0) as authorizations,
                s.created_timestamp >= f.consensus_start as "senderNew"
           from contract_result r
           join transaction t on t.consensus_timestamp = r.consensus_timestamp
           join entity s on s.id = r.sender_id
           left join ethereum_transaction e on e.consensus_timestamp = r.consensus_timestamp
           join record_file f on r.consensus_timestamp between f.consensus_start and f.consensus_end
          order by r.consensus_timestamp`,
      );
      const first = await client.query<{ index: string }>('select min(index)::text as index from record_file');
      firstBlock = BigInt(first.rows[0]?.index ?? 0);
      recorded = rows.map((row) => ({ ...row, block: BigInt(row.block), create: row.type === CONTRACTCREATEINSTANCE }));
      // Each applied authorization is a child CryptoUpdate of its Ethereum transaction (ADR 0022).
      const children = await client.query<Omit<Delegated, 'block'> & { readonly block: string }>(
        `select '0.0.' || t.entity_id as authority, e.consensus_timestamp::text as timestamp, f.index::text as block,
                p.result = ${SUCCESS} as mirrored
           from transaction t
           join ethereum_transaction e on e.consensus_timestamp = t.parent_consensus_timestamp
           join transaction p on p.consensus_timestamp = t.parent_consensus_timestamp
           join record_file f on t.consensus_timestamp between f.consensus_start and f.consensus_end
          where e.authorization_list is not null`,
      );
      delegated = children.rows.map((row) => ({ ...row, block: BigInt(row.block) }));
    } finally {
      await client.end();
    }
  },
  timeout: 900_000,
});

afterAll(() => rmSync(out, { recursive: true, force: true }));

const post = (body: object) => postCall(worker, body);

/** Runs `check` over `items`, PARALLEL at a time, and returns every failure message. */
async function failuresOf<T>(items: readonly T[], check: (item: T) => Promise<string | undefined>): Promise<string[]> {
  const failures: string[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      const failure = await check(item);
      if (failure) failures.push(failure);
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, lane));
  return failures;
}

const blockHex = (block: bigint) => `0x${block.toString(16)}`;

/** The route's maximum gas: a call's outcome with it is the one an estimate must keep. */
const MAX_GAS = 15_000_000n;

/**
 * The smallest gas limit, to within 0.1%, at which the call answers what it answers with the maximum gas, found by
 * bisection over calls (below 21,000 nothing runs).
 */
async function smallestGasThatWorks(request: object): Promise<bigint> {
  const outcome = async (gas: bigint) => {
    const response = await post({ ...request, gas: Number(gas) });
    return response.status === 200 ? response.body.result : undefined;
  };
  const expected = await outcome(MAX_GAS);
  if (expected === undefined) throw new Error(`${JSON.stringify(request)} fails with ${MAX_GAS} gas`);
  let low = 20_999n;
  let high = MAX_GAS;
  while ((high - low) * 1000n > high) {
    const middle = (low + high) / 2n;
    if ((await outcome(middle)) === expected) high = middle;
    else low = middle;
  }
  return high;
}

describe('contracts/call on the simulated network', () => {
  it('answers every view of every contract and HTS token as the model has it at latest and at four blocks', async () => {
    const all = stages.map((s) => s.model);
    const asked: { block: string; read: ModelRead }[] = [];
    const last = stages.at(-1);
    if (!last) throw new Error('no stage was simulated');
    for (const read of modelReads(last.model, all)) asked.push({ block: 'latest', read });
    for (const stage of stages) {
      for (const read of modelReads(stage.model, all)) asked.push({ block: blockHex(stage.lastBlock), read });
    }
    const kinds = new Set(asked.map(({ read }) => read.label.replace(/^(\S+) \S+ ([a-zA-Z]+).*$/, '$1 $2')));
    const expectedKinds = [
      'SimToken allowance',
      'Counter countedBy',
      'FUNGIBLE_COMMON allowance',
      'NON_FUNGIBLE_UNIQUE tokenURI',
      'NON_FUNGIBLE_UNIQUE isApprovedForAll',
    ];
    for (const kind of expectedKinds) {
      expect(kinds, `the model has no ${kind} to ask about`).toContain(kind);
    }
    const failures = await failuresOf(asked, async ({ block, read }) => {
      const response = await post({ to: read.to, data: read.data, block });
      const answer =
        response.status === 200 ? response.body.result : `${response.status} ${JSON.stringify(response.body)}`;
      return answer === read.result ? undefined : `${read.label} at ${block}: ${answer}, model ${read.result}`;
    });
    expect(failures.slice(0, 20), `${failures.length} of ${asked.length} answers differ`).toEqual([]);
  }, 300_000);

  it('estimates every recorded call at the block before it within 100-110% of the smallest gas that works', async () => {
    const last = stages.at(-1)?.model;
    if (!last) throw new Error('no stage was simulated');
    const gasOf = new Map(last.contractResults.map((r) => [r.consensusTimestamp, r]));
    const accounts = new Map(last.accounts.map((a) => [a.id, a]));
    // The block before a call has the state the call ran on only when nothing earlier in its block changed its
    // contract or sender: no earlier call to it, no authorization delegating it (its own transaction's included,
    // applied before its call), and a sender that existed.
    const alone = recorded.filter(
      (call, i) =>
        !call.create &&
        call.block > firstBlock &&
        !call.senderNew &&
        !recorded.some((other, j) => j < i && other.block === call.block && other.contract === call.contract) &&
        !delegated.some(
          (d) =>
            d.authority === call.contract && d.block === call.block && BigInt(d.timestamp) <= BigInt(call.timestamp),
        ) &&
        // An authority whose delegation the mirror left out runs other code on the mirror than it did on the ledger.
        !delegated.some(
          (d) => d.authority === call.contract && !d.mirrored && BigInt(d.timestamp) <= BigInt(call.timestamp),
        ),
    );
    expect(alone.some((c) => gasOf.get(c.timestamp)?.success === false)).toBe(true);
    expect(alone.length).toBeGreaterThan(20);
    expect(alone.some((c) => c.authorizations > 0)).toBe(true);
    const failures = await failuresOf(alone, async (call) => {
      const model = gasOf.get(call.timestamp);
      const sender = model && accounts.get(model.sender);
      if (!model || !sender) return `${call.timestamp}: not in the ledger model`;
      // An account is called at its EVM address, as the ledger's Ethereum transactions did: to the EVM, the
      // long-zero address of an account that has one is no account.
      const target = accounts.get(call.contract);
      const request = {
        from: canonicalAddress(sender),
        to: target ? canonicalAddress(target) : longZero(call.contract),
        data: call.data,
        value: Number(call.amount),
        block: blockHex(call.block - 1n),
      };
      const name = `${call.timestamp} (${call.contract}, ${call.data.slice(0, 10)})`;
      const estimate = await post({ ...request, estimate: true });
      // Of a type 4 transaction's gas limit, 25,000 per authorization went to the authorizations, and each one
      // applied to an existing account refunded 12,500, even on a revert (ADR 0014).
      const authorizations = BigInt(call.authorizations);
      const callGas = BigInt(model.gasLimit) - AUTHORIZATION_GAS * authorizations;
      if (
        !model.success &&
        BigInt(model.evmGasUsed) + AUTHORIZATION_REFUND * authorizations >= BigInt(model.gasLimit)
      ) {
        // It ran out of gas: with all the gas it needs the call succeeds, and needs more than the ledger gave it.
        const gas = estimate.status === 200 ? BigInt(estimate.body.result ?? '0') : 0n;
        return gas > callGas
          ? undefined
          : `${name} ran out of its ${callGas} gas on the ledger, estimate ${estimate.status} ${JSON.stringify(estimate.body)}`;
      }
      if (!model.success) {
        const data = estimate.body._status?.messages[0]?.data;
        return estimate.status === 400 && data === call.errorMessage
          ? undefined
          : `${name} reverted on the ledger with ${call.errorMessage}, estimate ${estimate.status} ${JSON.stringify(estimate.body)}`;
      }
      if (estimate.status !== 200) return `${name}: estimate ${estimate.status} ${JSON.stringify(estimate.body)}`;
      const gas = BigInt(estimate.body.result ?? '0');
      const smallest = await smallestGasThatWorks(request);
      if (gas < smallest || gas * 100n > smallest * 110n) {
        return `${name}: estimate ${gas}, the smallest gas that works ${smallest} (the ledger's EVM used ${model.evmGasUsed})`;
      }
      return undefined;
    });
    expect(failures, `${failures.length} of ${alone.length} estimates`).toEqual([]);
  }, 600_000);
});
