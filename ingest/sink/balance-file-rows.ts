/**
 * The rows of one account balance file, as the reference importer writes them (`parser/balance/
 * AccountBalanceFileParser.java`, `reader/balance/*`): one `account_balance` row per account, one `token_balance`
 * row per account and token (a duplicate kept once, the first), and the `account_balance_file` row: `count` the
 * accounts read, `load_start` / `load_end` in epoch milliseconds, `file_hash` the signed hash in hex, `name` the data
 * file as listed, no `bytes` (`persistBytes` is off by default), `time_offset` 0, not `synthetic`.
 */
import type pg from 'pg';
import type { ParsedBalanceFile } from '../decode/balance-file.ts';
import { toHex } from '../decode/hash.ts';
import type { Row } from './bulk-insert.ts';
import { bulkInsert } from './bulk-insert.ts';
import { copyInsert } from './copy-insert.ts';
import type { TableSchema } from './schema.ts';

export interface BalanceFileCounts {
  readonly accounts: number;
  readonly tokenBalances: number;
  /** Entries of an account or account-token pair already in the file, left out. */
  readonly duplicates: number;
}

export async function insertBalanceFileRows(
  client: pg.ClientBase,
  schema: TableSchema,
  file: ParsedBalanceFile,
  loadStartMs: number,
): Promise<BalanceFileCounts> {
  const at = file.consensusTimestamp;
  const accounts = new Map<bigint, Row>();
  const tokens = new Map<string, Row>();
  let duplicates = 0;
  for (const entry of file.accounts) {
    if (accounts.has(entry.accountId)) duplicates++;
    else
      accounts.set(entry.accountId, { consensus_timestamp: at, account_id: entry.accountId, balance: entry.balance });
    for (const token of entry.tokens) {
      const key = `${entry.accountId}/${token.tokenId}`;
      if (tokens.has(key)) duplicates++;
      else {
        tokens.set(key, {
          consensus_timestamp: at,
          account_id: entry.accountId,
          token_id: token.tokenId,
          balance: token.balance,
        });
      }
    }
  }
  await copyInsert(client, schema, 'account_balance', [...accounts.values()]);
  await copyInsert(client, schema, 'token_balance', [...tokens.values()]);
  await bulkInsert(client, schema, 'account_balance_file', [
    {
      consensus_timestamp: at,
      count: BigInt(file.accounts.length),
      load_start: BigInt(loadStartMs),
      load_end: BigInt(Date.now()),
      file_hash: toHex(file.fileHash),
      name: file.name,
      time_offset: 0,
      synthetic: false,
    },
  ]);
  return { accounts: accounts.size, tokenBalances: tokens.size, duplicates };
}
