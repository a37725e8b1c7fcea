/**
 * Exact replay, checked against the ledger itself: every contract call, contract create and Ethereum transaction of
 * a simulated network (written as a consensus node writes them, ingested as the importer does) is traced through the
 * route, and must give the recorded status, output and storage writes, and the EVM's gas, of which the recorded
 * `gas_used` is Hedera's charge max(EVM gas, 80% of the limit).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aliasEvmAddress } from '../../../../ingest/decode/key.ts';
import { runIngest } from '../../../../ingest/pipeline/run.ts';
import { DirStore } from '../../../../ingest/sources/dir-store.ts';
import { RecordStreamSource } from '../../../../ingest/sources/record-stream-source.ts';
import type { LedgerSnapshot } from '../../../../simulator/ledger/export.ts';
import { parseOptions } from '../../../../simulator/main.ts';
import { simulate } from '../../../../simulator/run.ts';
import { ADDRESS_BOOK_FILE, LEDGER_FILE } from '../../../../simulator/write/layout.ts';
import { type Anvil, startAnvil } from '../../../../test/harness/anvil.ts';
import { openWorkerDriver, TESTNET_SETTINGS } from '../../../../test/harness/evm-session.ts';
import { anvilTrace, firstStepDifference, type RouteStep } from '../../../../test/harness/struct-logs.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';
import { authorityOf, type StoredAuthorization } from './authorizations.ts';
import { parseTransactionRef } from './params.ts';
import { lookUpReplay } from './replay.ts';

const SUCCESS = 22;
const CONTRACT_CREATE = 8;
const ETHEREUM_TRANSACTION = 50;
const ENTITY_NUM_BITS = 38n;
const CHAIN_ID = 298n;

interface Recorded {
  readonly timestamp: string;
  readonly id: string;
  /** The sender's EVM address as the consensus node finds it: the one its alias stands for, else long-zero. */
  readonly sender: string;
  /** A type 4 transaction's authorizations, as the importer stores them. */
  readonly authorizations: readonly StoredAuthorization[];
  readonly ethereumHash: string | null;
  readonly type: number;
  /** The Ethereum transaction's own type (0, 1, 2, 4), if it is one. */
  readonly ethType: number | null;
  readonly result: number;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly callResult: string;
  /** Slot → value written, as `contract_state_change` holds them. */
  readonly writes: Map<bigint, bigint>;
}

interface OpcodeEntry {
  readonly op: string;
  readonly stack: string[];
}

const out = mkdtempSync(path.join(tmpdir(), 'opcodes-replay-'));
let ledger: LedgerSnapshot;
const recorded: Recorded[] = [];

beforeAll(async () => {
  await simulate({
    ...parseOptions(['--out', out, '--files', '6', '--tps', '60', '--seed', 'opcodes-replay']),
    weights: { callContract: 500, ethereumTransaction: 400, deployContract: 12 },
  });
  ledger = JSON.parse(readFileSync(path.join(out, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
}, 300_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

const bigOfHex = (hex: string | null) => (hex ? BigInt(`0x${hex}`) : 0n);

const { db, worker } = registerWorkerSuite({
  timeout: 300_000,
  async seed({ sql }) {
    await runIngest({
      source: new RecordStreamSource(new DirStore(out)),
      client: sql,
      bootstrapAddressBook: new Uint8Array(readFileSync(path.join(out, ADDRESS_BOOK_FILE))),
      untilIdle: true,
      log: () => {},
    });
    const results = await sql.query<{
      timestamp: string;
      payer: string;
      valid_start: string;
      type: number;
      result: number;
      gas_limit: string;
      gas_used: string;
      call_result: string | null;
      runtime: string | null;
      hash: string | null;
      eth_type: number | null;
      sender_id: string;
      sender_alias: Buffer | null;
      authorization_list: StoredAuthorization[] | null;
    }>(`select cr.consensus_timestamp::text as timestamp, cr.sender_id::text as sender_id, s.alias as sender_alias,
          et.authorization_list, t.payer_account_id::text as payer,
          t.valid_start_ns::text as valid_start, t.type, t.result, cr.gas_limit::text, cr.gas_used::text,
          encode(cr.call_result, 'hex') as call_result, encode(c.runtime_bytecode, 'hex') as runtime,
          encode(et.hash, 'hex') as hash, et.type as eth_type
        from contract_result cr
        join transaction t on t.consensus_timestamp = cr.consensus_timestamp
        left join ethereum_transaction et on et.consensus_timestamp = cr.consensus_timestamp
        left join contract c on c.id = cr.contract_id
        left join entity s on s.id = cr.sender_id
        order by cr.consensus_timestamp`);
    const changes = await sql.query<{ timestamp: string; slot: string; written: string | null }>(
      `select consensus_timestamp::text as timestamp, encode(slot, 'hex') as slot,
         encode(value_written, 'hex') as written
       from contract_state_change order by consensus_timestamp`,
    );
    for (const row of results.rows) {
      const payerNum = BigInt(row.payer) & ((1n << ENTITY_NUM_BITS) - 1n);
      const validStart = BigInt(row.valid_start);
      const writes = new Map<bigint, bigint>();
      for (const change of changes.rows.filter((c) => c.timestamp === row.timestamp && c.written !== null)) {
        writes.set(bigOfHex(change.slot), bigOfHex(change.written));
      }
      const senderNum = BigInt(row.sender_id) & ((1n << ENTITY_NUM_BITS) - 1n);
      const aliasAddress = aliasEvmAddress(row.sender_alias ? new Uint8Array(row.sender_alias) : undefined);
      recorded.push({
        timestamp: row.timestamp,
        id: `0.0.${payerNum}-${validStart / 1_000_000_000n}-${validStart % 1_000_000_000n}`,
        sender: aliasAddress ? hexOf(aliasAddress) : `0x${senderNum.toString(16).padStart(40, '0')}`,
        authorizations: row.authorization_list ?? [],
        ethereumHash: row.type === ETHEREUM_TRANSACTION ? row.hash : null,
        type: row.type,
        ethType: row.eth_type,
        result: row.result,
        gasLimit: BigInt(row.gas_limit),
        gasUsed: BigInt(row.gas_used),
        // A create's record has no call result: its output is the runtime code it deployed.
        callResult: `0x${(row.type === CONTRACT_CREATE ? row.runtime : row.call_result) ?? ''}`,
        writes,
      });
    }
  },
});

/** The value each slot was last given by an SSTORE of the trace. */
function tracedWrites(opcodes: readonly OpcodeEntry[]): Map<bigint, bigint> {
  const writes = new Map<bigint, bigint>();
  for (const entry of opcodes) {
    if (entry.op !== 'SSTORE') continue;
    const [value, slot] = entry.stack.slice(-2);
    writes.set(BigInt(slot ?? '0x0'), BigInt(value ?? '0x0'));
  }
  return writes;
}

const sorted = (writes: Map<bigint, bigint>) => [...writes].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

const floorOf = (gasLimit: bigint) => (gasLimit * 80n) / 100n;

const tracerOn = () =>
  worker.setState({
    config: {
      edge: { rateLimit: { enabled: false } },
      // The simulated network signs with chain id 298 (0x012a), the reference's OTHER.
      web3: {
        evm: { network: 'OTHER' },
        opcode: { tracer: { enabled: true } },
        throttle: { opcodeRequestsPerSecond: 100_000 },
      },
    },
  });

describe('every contract transaction of a simulated ledger, traced through the route', () => {
  it('replays each exactly: status, output, storage writes, the EVM gas and the charged gas', async () => {
    await tracerOn();
    const evmGasAt = new Map(ledger.contractResults.map((r) => [r.consensusTimestamp, BigInt(r.evmGasUsed)]));
    const mismatches: string[] = [];
    const kinds = new Map<string, number>();
    for (const tx of recorded) {
      const key = tx.ethereumHash ? `0x${tx.ethereumHash}` : tx.id;
      const response = await worker.get(`/api/v1/contracts/results/${key}/opcodes`, { 'accept-encoding': 'gzip' });
      const name = `${tx.id} (type ${tx.type}${tx.ethType === null ? '' : `/${tx.ethType}`}, at ${tx.timestamp})`;
      if (response.status !== 200) {
        mismatches.push(`${name}: status ${response.status} ${JSON.stringify(response.body)}`);
        continue;
      }
      const body = response.body as { failed: boolean; gas: number; return_value: string; opcodes: OpcodeEntry[] };
      const success = tx.result === SUCCESS;
      const kind = `${tx.ethType === null ? tx.type : `ethereum type ${tx.ethType}`}/${success ? 'ok' : 'failed'}`;
      kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
      const gas = BigInt(body.gas);
      const charged = gas > floorOf(tx.gasLimit) ? gas : floorOf(tx.gasLimit);
      const expected = {
        failed: !success,
        gas: evmGasAt.get(tx.timestamp),
        charged: tx.gasUsed,
        output: tx.callResult,
        writes: success ? sorted(tx.writes) : [],
      };
      const actual = {
        failed: body.failed,
        gas,
        charged,
        output: body.return_value,
        writes: success ? sorted(tracedWrites(body.opcodes)) : [],
      };
      if (JSON.stringify(actual, replacer) !== JSON.stringify(expected, replacer)) {
        mismatches.push(`${name}: ${JSON.stringify(actual, replacer)} != ${JSON.stringify(expected, replacer)}`);
      }
    }
    expect(mismatches).toEqual([]);
    // Calls, creates and Ethereum transactions of every type, successful and failed, all took part.
    expect([...kinds.keys()].sort()).toEqual(
      expect.arrayContaining([
        '7/ok',
        '7/failed',
        '8/ok',
        'ethereum type 0/ok',
        'ethereum type 1/ok',
        'ethereum type 2/ok',
        'ethereum type 2/failed',
        'ethereum type 4/ok',
      ]),
    );
    expect(recorded.length).toBeGreaterThan(100);
  }, 600_000);

  it('traces each call and create as anvil does, step by step: op, pc, depth, gas, cost, stack, memory, storage', async () => {
    await tracerOn();
    const anvil = await startAnvil(298, 'prague');
    try {
      expect(await differencesFromAnvil(anvil)).toEqual([]);
    } finally {
      await anvil.close();
    }
  }, 600_000);
});

/** 40 hex digits of an entity's canonical address: its EVM address, else its long-zero address (shard, realm 0). */
const canonicalSql = (alias: string) =>
  `'0x' || coalesce(encode(${alias}.evm_address, 'hex'), lpad(to_hex(${alias}.id), 40, '0'))`;
const hexOf = (bytes: Uint8Array) => `0x${Buffer.from(bytes).toString('hex')}`;

/**
 * Every contract transaction of the ledger traced by the route and by anvil (Prague, for EIP-7702's designators):
 * the same transaction as the route rebuilds it from the ledger, on the contracts' code, the delegations in force
 * before it and those its authorizations apply, and the storage it read (`contract_state_change.value_read`), each
 * from a snapshot of the contracts' code. Two parts of the transaction are anvil's own: the sender is the address
 * the consensus node runs it as (the sender's alias, else long-zero: `Recorded.sender`), and a type 4 transaction
 * carries its signed authorization list, which anvil charges for and applies itself (the authorities' nonces set so
 * that those the ledger applied apply), so the gas a trace starts with is anvil's.
 */
async function differencesFromAnvil(anvil: Anvil): Promise<string[]> {
  const contracts = await db.sql.query<{ address: string; runtime: string }>(
    `select ${canonicalSql('e')} as address, '0x' || encode(c.runtime_bytecode, 'hex') as runtime
       from contract c join entity e on e.id = c.id where c.runtime_bytecode is not null`,
  );
  for (const contract of contracts.rows) await anvil.rpc('anvil_setCode', [contract.address, contract.runtime]);
  const withCode = new Set(contracts.rows.map((contract) => contract.address));
  const reads = await db.sql.query<{ timestamp: string; address: string; slot: string; value: string }>(
    `select sc.consensus_timestamp::text as timestamp, ${canonicalSql('e')} as address,
            '0x' || encode(sc.slot, 'hex') as slot, '0x' || lpad(encode(sc.value_read, 'hex'), 64, '0') as value
       from contract_state_change sc join entity e on e.id = sc.contract_id
      where sc.value_read is not null`,
  );
  const driver = await openWorkerDriver(db.url);
  const settings = { ...TESTNET_SETTINGS, network: 'OTHER' as const, chainId: 298n };
  // A revert uses its snapshot up: each transaction takes a new one of the same state.
  let snapshot = await anvil.rpc<string>('evm_snapshot', []);
  const differences: string[] = [];
  const traced = new Set<string>();
  let aliasedCaller = 0;
  let skippingType4 = 0;
  try {
    for (const tx of recorded) {
      const key = tx.ethereumHash ? `0x${tx.ethereumHash}` : tx.id;
      const ref = parseTransactionRef(key);
      const lookup = ref.ok ? await lookUpReplay(driver.db, ref.value, settings) : undefined;
      if (!lookup?.ok) throw new Error(`${key}: no replay`);
      const { transaction } = lookup.replay;
      const to = transaction.to && hexOf(transaction.to);
      await anvil.rpc('evm_revert', [snapshot]);
      snapshot = await anvil.rpc<string>('evm_snapshot', []);
      const delegating = await db.sql.query<{ authority: string; delegate: string }>(
        `select ${canonicalSql('e')} as authority, '0x' || encode(e.delegation_address, 'hex') as delegate
           from (select id, evm_address, delegation_address, timestamp_range from entity
                 union all
                 select id, evm_address, delegation_address, timestamp_range from entity_history) e
          where length(e.delegation_address) = 20 and e.timestamp_range @> ($1::bigint - 1)`,
        [tx.timestamp],
      );
      for (const { authority, delegate } of delegating.rows) {
        const cleared = BigInt(delegate) === 0n;
        await anvil.rpc('anvil_setCode', [authority, cleared ? '0x' : `0xef0100${delegate.slice(2)}`]);
      }
      const authorizationList = await authorizationsFor(anvil, tx);
      const called =
        to === undefined ||
        withCode.has(to) ||
        delegating.rows.some((d) => d.authority === to) ||
        (transaction.delegations ?? []).some((d) => hexOf(d.authority) === to);
      if (!called) continue;
      const from = tx.sender;
      await anvil.rpc('anvil_setBalance', [from, `0x${(10n ** 30n).toString(16)}`]);
      for (const read of reads.rows.filter((r) => r.timestamp === tx.timestamp)) {
        await anvil.rpc('anvil_setStorageAt', [read.address, read.slot === '0x' ? '0x0' : read.slot, read.value]);
      }
      const response = await worker.get(
        `/api/v1/contracts/results/${key}/opcodes?stack=true&memory=true&storage=true`,
        {
          'accept-encoding': 'gzip',
        },
      );
      if (response.status !== 200) {
        differences.push(`${key}: status ${response.status}`);
        continue;
      }
      const theirs = await anvilTrace(anvil, {
        from,
        ...(to ? { to } : {}),
        data: hexOf(transaction.data),
        value: `0x${transaction.value.toString(16)}`,
        gas: `0x${transaction.gas.toString(16)}`,
        ...(authorizationList.length > 0 ? { authorizationList } : {}),
      });
      const ours = (response.body as { opcodes: RouteStep[] }).opcodes;
      const difference = firstStepDifference(ours, theirs.structLogs);
      if (difference) differences.push(`${key} (type ${tx.type}): ${difference}`);
      traced.add(tx.ethType === null ? `${tx.type}` : `ethereum type ${tx.ethType}`);
      if (!difference && tx.type === 7 && BigInt(from) >> 64n > 0n && ours.some((step) => step.op === 'CALLER')) {
        aliasedCaller++;
      }
      if (!difference && tx.authorizations.length > (transaction.delegations ?? []).length) skippingType4++;
    }
  } finally {
    await driver.close();
  }
  // Calls, creates and Ethereum transactions of every type.
  expect([...traced].sort()).toEqual([
    '7',
    '8',
    'ethereum type 0',
    'ethereum type 1',
    'ethereum type 2',
    'ethereum type 4',
  ]);
  // HAPI calls that read msg.sender as the sender's alias, and type 4 transactions with authorizations the ledger
  // skipped (each still charged), traced alike.
  expect(aliasedCaller, 'HAPI calls from an alias reading CALLER').toBeGreaterThan(0);
  expect(skippingType4, 'type 4 transactions with a skipped authorization').toBeGreaterThan(0);
  return differences.slice(0, 5);
}

/**
 * A type 4 transaction's authorization list as anvil takes it, with each authority's nonce set in anvil so that
 * exactly the authorizations the ledger applied apply: those whose authority the ledger updated as a child of the
 * transaction take the nonce their first one carries; every other authority one its authorizations do not carry.
 */
async function authorizationsFor(anvil: Anvil, tx: Recorded): Promise<Record<string, string>[]> {
  if (tx.authorizations.length === 0) return [];
  const updated = await db.sql.query<{ address: string }>(
    `select '0x' || encode(e.evm_address, 'hex') as address from transaction t join entity e on e.id = t.entity_id
      where t.parent_consensus_timestamp = $1 and t.type = 15`,
    [tx.timestamp],
  );
  const applied = new Set(updated.rows.map((row) => row.address));
  const nonces = new Map<string, bigint>();
  const quantity = (value: bigint) => `0x${value.toString(16)}`;
  const list = tx.authorizations.map((entry) => {
    const authority = authorityOf(entry);
    const chainId = BigInt(`0x${entry.chain_id.replace(/^0x/, '') || '0'}`);
    if (authority && (chainId === 0n || chainId === CHAIN_ID)) {
      const address = hexOf(authority);
      const nonce = BigInt(entry.nonce);
      const set = nonces.get(address);
      if (applied.has(address)) {
        if (set === undefined) nonces.set(address, nonce);
      } else if (set === undefined || set <= nonce) {
        nonces.set(address, nonce + 1n);
      }
    }
    const hex = (value: string) => `0x${value.replace(/^0x/, '')}`;
    return {
      chainId: quantity(chainId),
      address: hex(entry.address),
      nonce: quantity(BigInt(entry.nonce)),
      yParity: quantity(BigInt(entry.y_parity)),
      r: hex(entry.r),
      s: hex(entry.s),
    };
  });
  for (const [address, nonce] of nonces) await anvil.rpc('anvil_setNonce', [address, quantity(nonce)]);
  return list;
}

const replacer = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);
