/**
 * The reference mirror node's Postgres schema (v1 flavour), table for table and column for column, checked against
 * test/data/conformance/schema.json by db/migrate.test.ts.
 *
 * - What drizzle cannot declare lives in the custom migrations: extensions and domains (0000), the partitioned
 *   tables `account_balance`, `token_balance` and `transaction_hash` (0002: their definitions here serve queries),
 *   and the gist, gin, hash, partial and expression indexes (0003).
 * - bigint defaults are written as `sql` because drizzle-kit cannot serialise bigint values into its snapshots.
 */
export * from './airdrop.ts';
export * from './allowance.ts';
export * from './balance.ts';
export * from './column-types.ts';
export * from './contract.ts';
export * from './entity.ts';
export * from './file-data.ts';
export * from './hook.ts';
export * from './network.ts';
export * from './record-file.ts';
export * from './schedule.ts';
export * from './staking.ts';
export * from './token.ts';
export * from './topic.ts';
export * from './transaction.ts';
