/**
 * A small ledger for the Rosetta API's tests: a chain of record files, the treasury's genesis balance snapshot inside
 * the second file (so the genesis block is that file, started just after the snapshot), and transactions that show
 * each way the reference turns records into operations. Amounts and accounts are chosen so that each expected
 * operation can be written down by hand.
 */
import type pg from 'pg';
import { insertCryptoTransfer, insertRow, insertTransaction } from './factories.ts';
import { insertRecordFile } from './factories-blocks.ts';
import { insertAddressBook, insertAddressBookEntry, insertServiceEndpoint } from './factories-network.ts';
import { insertEntity } from './factories-tokens.ts';

export const SECOND = 1_000_000_000n;
export const BASE = 1_700_000_000n * SECOND;

/** Record file `i` spans [start, start + 5 s]; files are 10 s apart. */
export const fileStart = (i: number) => BASE + BigInt(i) * 10n * SECOND;
export const fileEnd = (i: number) => fileStart(i) + 5n * SECOND;
export const fileHash = (i: number) => (0xa0 + i).toString(16).repeat(48);

export const FILES = 6;
/** The treasury's first snapshot: 2 s into file 1, which makes file 1 the genesis block. */
export const GENESIS_SNAPSHOT = fileStart(1) + 2n * SECOND;

export const ED25519_KEY = 'ab'.repeat(32);
/** The alias (a serialized ED25519 Key) of account 0.0.1002, which is also its key. */
export const ALIAS = `1220${ED25519_KEY}`;

export const TREASURY = 2n;
export const NODE = 3n;
export const FEE_COLLECTOR = 98n;
export const STAKING_REWARD = 800n;
export const ALICE = 1001n;
export const ALIASED = 1002n;
/** Deleted in file 3 (its balance swept to Alice). */
export const DELETED = 1003n;

/** Balances at the genesis snapshot. */
export const GENESIS_BALANCES: ReadonlyMap<bigint, bigint> = new Map([
  [TREASURY, 1_000_000n],
  [NODE, 100n],
  [FEE_COLLECTOR, 0n],
  [STAKING_REWARD, 5000n],
  [ALICE, 500n],
  [ALIASED, 300n],
  [DELETED, 40n],
]);

/** Transaction hashes (48 bytes) by name, each made of one repeated byte. */
export const HASHES = {
  beforeGenesis: Buffer.alloc(48, 0x0b),
  transfer: Buffer.alloc(48, 0x11),
  failed: Buffer.alloc(48, 0x12),
  reward: Buffer.alloc(48, 0x13),
  duplicate: Buffer.alloc(48, 0x14),
  deletion: Buffer.alloc(48, 0x15),
} as const;

export const hashText = (hash: Buffer) => `0x${hash.toString('hex')}`;

interface Transfer {
  readonly account: bigint;
  readonly amount: bigint;
}

async function insertRecord(
  sql: pg.Client,
  at: bigint,
  row: Record<string, unknown> & { payer_account_id: bigint; transaction_hash: Buffer },
  transfers: readonly Transfer[],
): Promise<void> {
  await insertTransaction(sql, { consensus_timestamp: at, ...row });
  for (const { account, amount } of transfers) {
    await insertCryptoTransfer(sql, {
      consensus_timestamp: at,
      entity_id: account,
      amount,
      payer_account_id: row.payer_account_id,
    });
  }
}

/** The ledger: files 0–5, the genesis snapshot, the entities, the transactions below, the address book. */
export async function seedRosettaLedger(sql: pg.Client): Promise<void> {
  for (let i = 0; i < FILES; i++) {
    await insertRecordFile(sql, {
      index: BigInt(i),
      consensus_start: fileStart(i),
      consensus_end: fileEnd(i),
      hash: fileHash(i),
      prev_hash: i === 0 ? '0'.repeat(96) : fileHash(i - 1),
    });
  }
  for (const [account, balance] of GENESIS_BALANCES) {
    await insertRow(sql, 'account_balance', { consensus_timestamp: GENESIS_SNAPSHOT, account_id: account, balance });
  }
  for (const account of GENESIS_BALANCES.keys()) {
    const row =
      account === ALIASED
        ? { alias: Buffer.from(ALIAS, 'hex'), key: Buffer.from(ALIAS, 'hex') }
        : account === DELETED
          ? { deleted: true, timestamp_range: `[${fileStart(3) + SECOND},)` }
          : {};
    await insertEntity(sql, account, 1n, row);
  }
  await insertRow(sql, 'entity_history', {
    id: DELETED,
    num: DELETED,
    realm: 0,
    shard: 0,
    type: 'ACCOUNT',
    created_timestamp: 1n,
    deleted: false,
    timestamp_range: `[1,${fileStart(3) + SECOND})`,
  });

  // Before the genesis snapshot, in the genesis file: not part of any block.
  await insertRecord(sql, fileStart(1) + SECOND, { payer_account_id: ALICE, transaction_hash: HASHES.beforeGenesis }, [
    { account: ALICE, amount: -1n },
    { account: NODE, amount: 1n },
  ]);
  // Alice sends 50 to the aliased account and pays a fee of 10 (2 to the node, 8 to 0.0.98).
  await insertRecord(
    sql,
    fileStart(1) + 3n * SECOND,
    {
      payer_account_id: ALICE,
      transaction_hash: HASHES.transfer,
      memo: Buffer.from('rent <march>'),
      itemized_transfer: JSON.stringify([
        { amount: -50, entity_id: Number(ALICE), is_approval: false },
        { amount: 50, entity_id: Number(ALIASED), is_approval: false },
      ]),
    },
    [
      { account: NODE, amount: 2n },
      { account: FEE_COLLECTOR, amount: 8n },
      { account: ALICE, amount: -60n },
      { account: ALIASED, amount: 50n },
    ],
  );
  // A transfer that failed: Alice pays the fee of 5, nothing else moves.
  await insertRecord(
    sql,
    fileStart(2) + SECOND,
    { payer_account_id: ALICE, transaction_hash: HASHES.failed, result: 10 },
    [
      { account: NODE, amount: 1n },
      { account: FEE_COLLECTOR, amount: 4n },
      { account: ALICE, amount: -5n },
    ],
  );
  // An account update paying Alice a staking reward of 7 from 0.0.800; her fee is 3.
  await insertRecord(
    sql,
    fileStart(2) + 2n * SECOND,
    { payer_account_id: ALICE, transaction_hash: HASHES.reward, type: 15, entity_id: ALICE },
    [
      { account: NODE, amount: 1n },
      { account: FEE_COLLECTOR, amount: 2n },
      { account: STAKING_REWARD, amount: -7n },
      { account: ALICE, amount: 4n },
    ],
  );
  await insertRow(sql, 'staking_reward_transfer', {
    account_id: ALICE,
    amount: 7n,
    consensus_timestamp: fileStart(2) + 2n * SECOND,
    payer_account_id: ALICE,
  });
  // The same transaction reached consensus twice: the second is a DUPLICATE_TRANSACTION charged to its node.
  await insertRecord(
    sql,
    fileStart(3) + SECOND / 2n,
    { payer_account_id: ALICE, transaction_hash: HASHES.duplicate, type: 11, entity_id: 1004n },
    [
      { account: NODE, amount: 3n },
      { account: ALICE, amount: -3n },
    ],
  );
  await insertRecord(
    sql,
    fileStart(3) + SECOND / 2n + 1n,
    { payer_account_id: ALICE, transaction_hash: HASHES.duplicate, type: 11, result: 11 },
    [
      { account: NODE, amount: 1n },
      { account: ALICE, amount: -1n },
    ],
  );
  // The deleted account sweeps its 40 to Alice, fee 2 to the node.
  await insertRecord(
    sql,
    fileStart(3) + SECOND,
    { payer_account_id: DELETED, transaction_hash: HASHES.deletion, type: 12, entity_id: DELETED },
    [
      { account: NODE, amount: 2n },
      { account: ALICE, amount: 38n },
      { account: DELETED, amount: -40n },
    ],
  );

  await insertAddressBook(sql, { start_consensus_timestamp: 1n, file_id: 102n });
  for (const node of [0n, 1n]) {
    await insertAddressBookEntry(sql, { consensus_timestamp: 1n, node_id: node });
    await insertServiceEndpoint(sql, {
      consensus_timestamp: 1n,
      node_id: node,
      port: 50211,
      ip_address_v4: `10.0.0.${node + 1n}`,
    });
  }
}
