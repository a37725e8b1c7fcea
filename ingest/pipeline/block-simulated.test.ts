import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseOptions } from '../../simulator/main.ts';
import { simulate } from '../../simulator/run.ts';
import { createTestDatabase } from '../../test/harness/test-database.ts';
import { readBlock } from '../decode/block-reader.ts';
import { bytesEqual } from '../decode/hash.ts';
import { type DerivedBlock, deriveBlock } from '../derive/block.ts';
import { BlockFileSource } from '../sources/block-file-source.ts';
import { DirStore } from '../sources/dir-store.ts';
import { runBlockIngest } from './block-run.ts';

let out: string;
const counts: number[] = [];
const derived: DerivedBlock[] = [];
let chained = true;

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'simulated-blocks-'));
  await simulate({
    ...parseOptions(['--out', out, '--files', '3', '--tps', '60', '--format', 'block', '--seed', 'blocks-ingest']),
    onFile: (file) => counts.push(file.count),
  });
  const source = new BlockFileSource(new DirStore(out));
  let previous: Uint8Array | undefined;
  for await (const sourced of source.blocks((await source.earliest()) ?? 0n, { untilIdle: true })) {
    const block = readBlock(`block ${sourced.number}`, sourced.items, sourced.size);
    if (previous && !bytesEqual(block.previousHash, previous)) chained = false;
    previous = block.hash;
    derived.push(deriveBlock(block, 0n));
  }
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

const rows = (table: string) => derived.flatMap((d) => d.rows.rows(table) as Record<string, unknown>[]);

describe('blocks of a simulated network', () => {
  it('finds every block under <network>/block/, chained, with every transaction', () => {
    // the genesis block and three of traffic
    expect(derived.map((d) => d.index)).toEqual([0n, 1n, 2n, 3n]);
    expect(chained).toBe(true);
    expect(derived.map((d) => d.count)).toEqual(counts);
  });

  it('gives creates the entity their state changes report', () => {
    const creates = rows('transaction').filter((t) => [11, 24, 29].includes(t.type as number) && t.result === 22);
    expect(creates.length).toBeGreaterThan(0);
    expect(creates.filter((t) => t.entity_id === null)).toEqual([]);
    // Later creates of a kind get larger ids.
    const topics = creates.filter((t) => t.type === 24).map((t) => t.entity_id as bigint);
    expect([...topics].sort((a, b) => (a < b ? -1 : 1))).toEqual(topics);
  });

  it('gives topic messages the sequence numbers and running hashes of the topic state', () => {
    const messages = rows('topic_message');
    expect(messages.length).toBeGreaterThan(0);
    for (const m of messages) {
      expect(m.sequence_number as bigint).toBeGreaterThan(0n);
      expect((m.running_hash as Uint8Array).length).toBe(48);
    }
  });

  it('balances every transfer list', () => {
    const sums = new Map<bigint, bigint>();
    for (const t of rows('crypto_transfer')) {
      const ts = t.consensus_timestamp as bigint;
      sums.set(ts, (sums.get(ts) ?? 0n) + (t.amount as bigint));
    }
    expect([...sums.values()].filter((s) => s !== 0n)).toEqual([]);
  });

  it('writes contract storage changes and bytecode from state changes and trace data', () => {
    const calls = rows('transaction').filter((t) => [7, 8, 50].includes(t.type as number) && t.result === 22);
    expect(calls.length).toBeGreaterThan(0);
    const changes = rows('contract_state_change');
    expect(changes.length).toBeGreaterThan(0);
    const callTimes = new Set(calls.map((t) => t.consensus_timestamp as bigint));
    for (const change of changes) {
      expect(callTimes.has(change.consensus_timestamp as bigint)).toBe(true);
      expect(change.value_written).toBeInstanceOf(Uint8Array);
    }
    // Every written slot is current state; a create stores the initcode it ran and the runtime code it left.
    const replaced = (table: string) =>
      derived.flatMap((d) => (d.rows.replaces.get(table) ?? []) as Record<string, unknown>[]);
    expect(replaced('contract_state').length).toBeGreaterThan(0);
    const created = replaced('contract').filter((c) => c.initcode);
    const creates = calls.filter((t) => t.type === 8).map((t) => t.entity_id);
    expect(new Set(created.map((c) => c.id))).toEqual(new Set(creates));
    for (const c of created) expect((c.initcode as Uint8Array).length).toBeGreaterThan(0);
    const runtimes = replaced('contract').filter((c) => (c.runtime_bytecode as Uint8Array | undefined)?.length);
    expect(new Set(runtimes.map((c) => c.id))).toEqual(new Set(creates));
    // The call trace: one action per EVM transaction at least.
    const actions = new Set(rows('contract_action').map((a) => a.consensus_timestamp as bigint));
    expect(actions).toEqual(callTimes);
  });
});

describe('simulated blocks in the database', () => {
  it('writes their contract state changes, current state and initcode', async () => {
    const db = await createTestDatabase();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      const run = await runBlockIngest({
        source: new BlockFileSource(new DirStore(out)),
        client,
        startBlock: -1n,
        untilIdle: true,
        log: () => {},
      });
      expect(run.blocks).toBe(4);
      const count = async (query: string) => (await db.sql.query(query)).rows[0]?.n as number;
      expect(await count('select count(*)::int as n from contract_state_change')).toBe(
        rows('contract_state_change').length,
      );
      expect(await count('select count(*)::int as n from contract_state')).toBeGreaterThan(0);
      expect(await count('select count(*)::int as n from contract where initcode is not null')).toBeGreaterThan(0);
    } finally {
      await client.end();
      await db.drop();
    }
  });

  it("write the transaction's pricing multipliers as the importer reads them from a block (0 when unset)", () => {
    const transactions = rows('transaction');
    expect(transactions.length).toBeGreaterThan(0);
    for (const t of transactions) {
      expect([t.congestion_pricing_multiplier, t.high_volume_pricing_multiplier]).toEqual([0n, 0n]);
    }
  });

  it('write a topic message for every successful ConsensusSubmitMessage, its running hash taken from the block', () => {
    const submits = rows('transaction').filter((t) => t.type === 27 && t.result === 22);
    const messages = rows('topic_message');
    expect(submits.length).toBeGreaterThan(0);
    expect(messages.length).toBe(submits.length);
    for (const m of messages) expect((m.running_hash as Uint8Array).length).toBe(48);
  });
});
