/**
 * The genesis balances of a simulated network in the database, as the importer learns them from a network's first
 * account balance file: a snapshot (`account_balance`, `account_balance_file`) just before the first record file,
 * and the accounts' entity rows holding those balances, which the record files' transfers then change. Used for an
 * output directory that has no balance files of its own (`accountBalances/`); with one, the ingest reads it.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type pg from 'pg';
import type { LedgerSnapshot } from '../../simulator/ledger/export.ts';
import { TREASURY } from '../../simulator/ledger/ids.ts';
import { TOTAL_SUPPLY_TINYBARS } from '../../simulator/ledger/ledger.ts';
import { LEDGER_FILE, recordDirectory } from '../../simulator/write/layout.ts';
import { insertRow } from './factories.ts';

/** Whether the simulated network in `out` wrote account balance files (which the ingest reads itself). */
export const hasBalanceFiles = (out: string): boolean => existsSync(path.join(out, 'accountBalances'));

/** The consensus start of the first record file in `out`, from its name (`2025-01-01T00_00_00.123456789Z.rcd.gz`). */
function firstRecordFileStart(out: string): bigint {
  const names = readdirSync(recordDirectory(out, 3n))
    .filter((name) => name.endsWith('.rcd.gz'))
    .sort();
  const match = /^(\d{4}-\d{2}-\d{2}T\d{2}_\d{2}_\d{2})\.(\d{9})Z/.exec(names[0] ?? '');
  if (!match?.[1] || !match[2]) throw new Error(`no record file in ${out}`);
  const seconds = BigInt(Date.parse(`${match[1].replaceAll('_', ':')}Z`) / 1000);
  return seconds * 1_000_000_000n + BigInt(match[2]);
}

/**
 * Writes the genesis snapshot of the network in `out` (its model's `genesisBalance`s) one nanosecond before its
 * first record file, with the entity rows of the accounts that hold hbar at genesis. Returns the snapshot's time.
 */
export async function seedGenesisBalances(sql: pg.Client, out: string): Promise<bigint> {
  const model = JSON.parse(readFileSync(path.join(out, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
  const genesis = model.accounts
    .map((account) => ({ num: BigInt(account.id.split('.')[2] as string), balance: BigInt(account.genesisBalance) }))
    .filter(({ num, balance }) => balance !== 0n || num === TREASURY);
  return writeGenesis(sql, firstRecordFileStart(out) - 1n, genesis, true);
}

/**
 * The genesis snapshot of a live local network (`--live`, whose model is written only now and then): its treasury
 * holds the whole supply (docs/adr/0043-local-network.md), one nanosecond before its first record file, which must
 * have been written. The ingest, running already, writes the treasury's entity row itself. Returns the snapshot's
 * time.
 */
export function seedLiveGenesisBalances(sql: pg.Client, out: string): Promise<bigint> {
  const genesis = [{ num: TREASURY, balance: TOTAL_SUPPLY_TINYBARS }];
  return writeGenesis(sql, firstRecordFileStart(out) - 1n, genesis, false);
}

async function writeGenesis(
  sql: pg.Client,
  at: bigint,
  genesis: readonly { num: bigint; balance: bigint }[],
  entities: boolean,
): Promise<bigint> {
  for (const { num, balance } of genesis) {
    await insertRow(sql, 'account_balance', { consensus_timestamp: at, account_id: num, balance });
    if (!entities) continue;
    await insertRow(sql, 'entity', {
      id: num,
      num,
      realm: 0,
      shard: 0,
      type: 'ACCOUNT',
      balance,
      balance_timestamp: at,
      timestamp_range: `[${at},)`,
      memo: '',
    });
  }
  const seconds = at / 1_000_000_000n;
  const name = `${new Date(Number(seconds) * 1000).toISOString().slice(0, 19).replaceAll(':', '_')}.${String(at % 1_000_000_000n).padStart(9, '0')}Z_Balances.pb.gz`;
  await insertRow(sql, 'account_balance_file', {
    consensus_timestamp: at,
    count: genesis.length,
    load_start: 0,
    load_end: 0,
    name,
    time_offset: 0,
    synthetic: false,
  });
  return at;
}
