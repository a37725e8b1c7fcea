/**
 * Writes one verified balance file in ONE database transaction, its `account_balance_file` row being its cursor:
 * under the writer lock, a file whose time is not after the newest balance file the database holds is skipped (a
 * replay, or the `.pb` twin of a `.csv` just written, as the importer's parser skips "existing stream files");
 * otherwise its rows, and — for the first balance file the database gets — the current balances it implies
 * (sink/initial-balances.ts).
 */
import type pg from 'pg';
import { toHex } from '../decode/hash.ts';
import { insertBalanceFileRows } from '../sink/balance-file-rows.ts';
import { initializeBalances } from '../sink/initial-balances.ts';
import type { TableSchema } from '../sink/schema.ts';
import { WRITER_LOCK } from '../sink/writer-lock.ts';
import type { VerifiedBalanceFile } from './verify-balance-file.ts';

export type Log = (fields: Record<string, unknown>) => void;

export type BalanceFileOutcome = 'written' | 'skipped';

export async function writeBalanceFile(
  client: pg.ClientBase,
  schema: TableSchema,
  verified: VerifiedBalanceFile,
  log: Log,
): Promise<BalanceFileOutcome> {
  const { parsed, folder } = verified;
  const at = parsed.consensusTimestamp;
  const startedAt = performance.now();
  await client.query('begin');
  try {
    await client.query('select pg_advisory_xact_lock($1)', [WRITER_LOCK]);
    const newest = await client.query<{ at: string | null; end: string | null }>(
      `select (select max(consensus_timestamp) from account_balance_file)::text as at,
              (select max(consensus_end) from record_file)::text as end`,
    );
    const previous = newest.rows[0]?.at;
    if (previous !== null && previous !== undefined && BigInt(previous) >= at) {
      await client.query('rollback');
      log({
        msg: 'balance file skipped',
        level: 'warn',
        file: parsed.name,
        reason: 'not after the newest balance file',
      });
      return 'skipped';
    }
    const counts = await insertBalanceFileRows(client, schema, parsed, verified.loadStartMs);
    let initialized: number | undefined;
    if (previous === null || previous === undefined) {
      const recordEnd = newest.rows[0]?.end;
      const to = recordEnd !== null && recordEnd !== undefined && BigInt(recordEnd) > at ? BigInt(recordEnd) : at;
      initialized = await initializeBalances(client, { snapshot: at, from: at, to });
    }
    await client.query('commit');
    for (const { node, reason } of verified.signatureProblems) {
      log({ msg: 'invalid signature file', level: 'warn', file: parsed.name, node, reason });
    }
    for (const reason of parsed.invalidLines.slice(0, 10)) {
      log({ msg: 'invalid balance line', level: 'error', file: parsed.name, reason });
    }
    log({
      msg: 'balance file ingested',
      file: parsed.name,
      consensusTimestamp: at.toString(),
      count: parsed.accounts.length,
      tokenBalances: counts.tokenBalances,
      ...(counts.duplicates > 0 ? { duplicates: counts.duplicates } : {}),
      ...(parsed.invalidLines.length > 0 ? { invalidLines: parsed.invalidLines.length } : {}),
      ...(initialized !== undefined ? { balancesInitialized: initialized } : {}),
      hash: toHex(parsed.fileHash),
      node: folder.node.accountName ?? folder.node.nodeId?.toString(),
      ms: Math.round(performance.now() - startedAt),
    });
    return 'written';
  } catch (error) {
    await client.query('rollback').catch(() => {});
    throw error;
  }
}
