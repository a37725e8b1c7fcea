import { proto } from '@hiero-ledger/proto';
import type pg from 'pg';
import { insertRow } from './factories.ts';

/** Rows and system file contents for the `/network/*` routes. */

type Row = Record<string, unknown>;

export async function insertAddressBook(
  sql: pg.Client,
  row: { start_consensus_timestamp: bigint; file_id?: bigint } & Row,
): Promise<void> {
  await insertRow(sql, 'address_book', { file_id: 102n, node_count: 0, file_data: Buffer.alloc(0), ...row });
}

export async function insertAddressBookEntry(
  sql: pg.Client,
  row: { consensus_timestamp: bigint; node_id: bigint } & Row,
): Promise<void> {
  await insertRow(sql, 'address_book_entry', {
    memo: `0.0.${row.node_id + 3n}`,
    node_account_id: row.node_id + 3n,
    public_key: `308201a2300d06092a${row.node_id}`,
    node_cert_hash: Buffer.from(`01d1737538${row.node_id}`),
    description: `node ${row.node_id}`,
    stake: 0,
    ...row,
  });
}

export async function insertServiceEndpoint(
  sql: pg.Client,
  row: { consensus_timestamp: bigint; node_id: bigint; port: number } & Row,
): Promise<void> {
  await insertRow(sql, 'address_book_service_endpoint', { ip_address_v4: '', domain_name: '', ...row });
}

export async function insertNode(sql: pg.Client, row: { node_id: bigint } & Row): Promise<void> {
  await insertRow(sql, 'node', {
    created_timestamp: 1n,
    timestamp_range: '[1,)',
    decline_reward: false,
    ...row,
  });
}

export async function insertNodeStake(
  sql: pg.Client,
  row: { consensus_timestamp: bigint; node_id: bigint } & Row,
): Promise<void> {
  await insertRow(sql, 'node_stake', {
    epoch_day: 19000,
    reward_rate: 100,
    stake: 1000,
    stake_rewarded: 700,
    stake_not_rewarded: 300,
    staking_period: row.consensus_timestamp - 1n,
    max_stake: 5000,
    min_stake: 100,
    ...row,
  });
}

export async function insertNetworkStake(sql: pg.Client, row: { consensus_timestamp: bigint } & Row): Promise<void> {
  await insertRow(sql, 'network_stake', {
    epoch_day: 19000,
    max_staking_reward_rate_per_hbar: 17808,
    node_reward_fee_denominator: 10,
    node_reward_fee_numerator: 1,
    stake_total: 35_000_000_000_000_000n,
    staking_period: row.consensus_timestamp - 1n,
    staking_period_duration: 1440,
    staking_periods_stored: 365,
    staking_reward_fee_denominator: 3,
    staking_reward_fee_numerator: 1,
    staking_reward_rate: 100_000_000_000n,
    staking_start_threshold: 25_000_000_000_000_000n,
    max_stake_rewarded: 10,
    max_total_reward: 20,
    reserved_staking_rewards: 30,
    reward_balance_threshold: 40,
    unreserved_staking_reward_balance: 50,
    ...row,
  });
}

export async function insertRegisteredNode(
  sql: pg.Client,
  row: { registered_node_id: bigint; type?: number[]; service_endpoints?: unknown } & Row,
): Promise<void> {
  await insertRow(sql, 'registered_node', {
    created_timestamp: 1_000_000_000n + row.registered_node_id,
    deleted: false,
    description: `registered ${row.registered_node_id}`,
    timestamp_range: `[${1_000_000_000n + row.registered_node_id},)`,
    type: [],
    ...row,
    service_endpoints: row.service_endpoints === undefined ? null : JSON.stringify(row.service_endpoints),
  });
}

/** FileCreate, FileAppend and FileUpdate transaction types. */
export const FILE_CREATE = 17;
export const FILE_APPEND = 16;
export const FILE_UPDATE = 19;

export async function insertFileData(
  sql: pg.Client,
  row: { consensus_timestamp: bigint; entity_id: bigint; file_data: Uint8Array | null; transaction_type?: number },
): Promise<void> {
  await insertRow(sql, 'file_data', {
    ...row,
    transaction_type: row.transaction_type ?? FILE_UPDATE,
    file_data: row.file_data === null ? null : Buffer.from(row.file_data),
  });
}

export interface RateInput {
  hbars: number;
  cents: number;
  /** Seconds since the epoch. */
  expiration: number;
}

export function exchangeRateSetBytes(current: RateInput, next: RateInput): Uint8Array {
  const rate = (input: RateInput) => ({
    hbarEquiv: input.hbars,
    centEquiv: input.cents,
    expirationTime: { seconds: input.expiration },
  });
  // protobufjs takes plain numbers for int64 fields; its typings ask for Long
  const message = { currentRate: rate(current), nextRate: rate(next) } as unknown as proto.IExchangeRateSet;
  return proto.ExchangeRateSet.encode(message).finish();
}

export interface ScheduleInput {
  /** Seconds since the epoch. */
  expiry: number;
  /** HederaFunctionality number and the gas price (thousandths of a tinycent) of its service fee. */
  gas: [functionality: number, gas: number][];
}

export function feeScheduleBytes(current: ScheduleInput, next: ScheduleInput): Uint8Array {
  const schedule = (input: ScheduleInput) => ({
    expiryTime: { seconds: input.expiry },
    transactionFeeSchedule: input.gas.map(([hederaFunctionality, gas]) => ({
      hederaFunctionality,
      fees: [{ servicedata: { gas } }],
    })),
  });
  const message = {
    currentFeeSchedule: schedule(current),
    nextFeeSchedule: schedule(next),
  } as unknown as proto.ICurrentAndNextFeeSchedule;
  return proto.CurrentAndNextFeeSchedule.encode(message).finish();
}

/** Removes every row of the given tables, for a test that needs an empty database. */
export async function clearTables(sql: pg.Client, tables: readonly string[]): Promise<void> {
  await sql.query(`truncate ${tables.join(', ')}`);
}
