/**
 * Fills in the Ethereum hash of the transactions whose call data is in a file (ingest/derive/call-data-file.ts),
 * after the record file's own rows are written: the file's contents as of the transaction are then all in
 * `file_data`, including those an earlier item of the same record file wrote.
 */
import type pg from 'pg';
import { type CallDataFromFile, decodeHexContents, hashWithCallData } from '../derive/call-data-file.ts';
import { byteaText } from './sql-text.ts';

/**
 * The file's contents at a timestamp, as the importer's `FileDataRepository.getFileAtTimestamp` reads them: from
 * its latest FileCreate or non-empty FileUpdate on, every row but an empty FileUpdate, in order; NULL when there
 * is none.
 */
const FILE_AT_TIMESTAMP = `
  select string_agg(file_data, ''::bytea order by consensus_timestamp) as contents
    from file_data
   where entity_id = $1
     and consensus_timestamp <= $2
     and (transaction_type <> 19 or length(file_data) <> 0)
     and consensus_timestamp >= (
           select consensus_timestamp
             from file_data
            where entity_id = $1
              and consensus_timestamp <= $2
              and (transaction_type = 17 or (transaction_type = 19 and length(file_data) <> 0))
            order by consensus_timestamp desc
            limit 1)`;

/**
 * Every column that carries the transaction's Ethereum hash (the contract log's only where it is the Ethereum
 * hash, not a synthetic log's transaction hash), and the transaction_hash row the importer adds for it.
 */
const SET_HASH = `
  with ethereum as (update ethereum_transaction set hash = $2::bytea where consensus_timestamp = $1),
       result as (update contract_result set transaction_hash = $2::bytea where consensus_timestamp = $1),
       lookup as (update contract_transaction_hash set hash = $2::bytea where consensus_timestamp = $1),
       logs as (update contract_log set transaction_hash = $2::bytea
                 where consensus_timestamp = $1 and length(transaction_hash) = 0)
  insert into transaction_hash (consensus_timestamp, hash, payer_account_id) values ($1, $2::bytea, $3)`;

export async function restoreCallDataHashes(
  client: pg.ClientBase,
  transactions: readonly CallDataFromFile[],
): Promise<void> {
  for (const tx of transactions) {
    const timestamp = tx.consensusTimestamp.toString();
    const { rows } = await client.query<{ contents: Uint8Array | null }>(FILE_AT_TIMESTAMP, [
      tx.fileId.toString(),
      timestamp,
    ]);
    const callData = rows[0]?.contents ? decodeHexContents(rows[0].contents) : undefined;
    // Contents missing or not hex: the hash stays empty, as the importer leaves it.
    const hash = callData ? hashWithCallData(tx.data, callData) : new Uint8Array();
    if (hash.length > 0) await client.query(SET_HASH, [timestamp, byteaText(hash), tx.payerAccountId.toString()]);
  }
}
