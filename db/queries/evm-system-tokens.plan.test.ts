import { describe, expect, it } from 'vitest';
import { GENESIS, SECOND } from '../../test/harness/evm-session.ts';
import { type PlanNode, planOfStatement } from '../../test/harness/explain.ts';
import { usePlanDatabase } from '../../test/harness/plan-database.ts';
import { nftAt, nftBalanceAt, tokenAllowanceAt, tokenRelationshipAt } from './evm-system-tokens.ts';

const START = GENESIS;
const TOKEN = 5000n;
const NFT = 7000n;
const ACCOUNTS = 1000;
const FIRST_ACCOUNT = 10_000n;
const ROWS = 1_000_000;
/** A block in the middle of the transfers: a call at it reads history. */
const AT = START + BigInt(ROWS / 2) * SECOND;

const db = usePlanDatabase(async (sql) => {
  // A million transfers of the token among a thousand accounts, one a second, and a snapshot every hour.
  await sql.query(
    `insert into token_transfer (token_id, account_id, amount, consensus_timestamp, payer_account_id)
     select $1::bigint, $2::bigint + n % $3, 1, $4::bigint + n * 1000000000, 2
       from generate_series(1, $5::bigint) n`,
    [TOKEN, FIRST_ACCOUNT, ACCOUNTS, START, ROWS],
  );
  await sql.query(
    `insert into account_balance (account_id, balance, consensus_timestamp)
     select 2, 1, $1::bigint + h * 3600000000000 from generate_series(0, $2::bigint / 3600) h`,
    [START, ROWS],
  );
  await sql.query(
    `insert into token_balance (account_id, token_id, balance, consensus_timestamp)
     select $1::bigint + a, $2::bigint, h, $3::bigint + h * 3600000000000
       from generate_series(0, $4::bigint / 3600) h, generate_series(0, 99) a`,
    [FIRST_ACCOUNT, TOKEN, START, ROWS],
  );
  await sql.query(
    `insert into token_account (account_id, token_id, associated, balance, timestamp_range)
     select $1::bigint + a, $2::bigint, true, 1, '[1,)' from generate_series(0, $3::bigint - 1) a`,
    [FIRST_ACCOUNT, TOKEN, ACCOUNTS],
  );
  // A million serials of one NFT spread over the accounts, half of them moved once (a history row each).
  await sql.query(
    `insert into nft (token_id, serial_number, account_id, created_timestamp, deleted, timestamp_range)
     select $1::bigint, n, $2::bigint + n % $3, $4::bigint, false,
            int8range(case when n % 2 = 0 then $4::bigint + n * 1000000000 else $4::bigint end, null)
       from generate_series(1, $5::bigint) n`,
    [NFT, FIRST_ACCOUNT, ACCOUNTS, START, ROWS],
  );
  await sql.query(
    `insert into nft_history (token_id, serial_number, account_id, created_timestamp, deleted, timestamp_range)
     select $1::bigint, n, $2::bigint + (n + 1) % $3, $4::bigint, false,
            int8range($4::bigint, $4::bigint + n * 1000000000)
       from generate_series(2, $5::bigint, 2) n`,
    [NFT, FIRST_ACCOUNT, ACCOUNTS, START, ROWS],
  );
  await sql.query('analyze token_transfer, account_balance, token_balance, token_account, nft, nft_history');
}, 600_000);

/** The plan of the statement `run` issues. */
const planOf = (run: Parameters<typeof planOfStatement>[1]) => planOfStatement(db.sql, run);

/** Rows a table's scans returned; a partitioned table's scans name its partitions (`token_balance_p2020`). */
const rowsOf = (nodes: PlanNode[], table: string) =>
  nodes
    .filter((node) => node['Relation Name'] === table || node['Relation Name']?.startsWith(`${table}_p`))
    .reduce((sum, node) => sum + (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1), 0);

describe('token reads at a past block over million-row tables', () => {
  it('reads an account’s token balance from its snapshot row and its own transfers since', async () => {
    const nodes = await planOf((database) => tokenRelationshipAt(database, FIRST_ACCOUNT + 7n, TOKEN, AT));
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    // The transfers since the hourly snapshot: at most an hour of the account's transfers.
    expect(rowsOf(nodes, 'token_transfer')).toBeGreaterThan(0);
    expect(rowsOf(nodes, 'token_transfer')).toBeLessThanOrEqual(3600);
    expect(rowsOf(nodes, 'token_balance')).toBe(1);
  });

  it('counts an account’s NFTs at a past block from its own versions only', async () => {
    const nodes = await planOf((database) => nftBalanceAt(database, FIRST_ACCOUNT + 7n, NFT, AT));
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    // The account holds a thousandth of the serials: about 1,000 current rows and 500 history rows.
    expect(rowsOf(nodes, 'nft')).toBeGreaterThan(0);
    expect(rowsOf(nodes, 'nft_history')).toBeGreaterThan(0);
    expect(rowsOf(nodes, 'nft') + rowsOf(nodes, 'nft_history')).toBeLessThanOrEqual(2000);
  });

  it('reads one serial and one allowance by their keys', async () => {
    for (const run of [
      (database: Parameters<typeof nftAt>[0]) => nftAt(database, NFT, 500_000n, AT),
      (database: Parameters<typeof nftAt>[0]) =>
        tokenAllowanceAt(database, { owner: FIRST_ACCOUNT, spender: FIRST_ACCOUNT + 1n, tokenId: TOKEN }, AT),
    ]) {
      const nodes = await planOf(run);
      expect(nodes.map((node) => node['Node Type'])).not.toContain('Seq Scan');
    }
  });
});
