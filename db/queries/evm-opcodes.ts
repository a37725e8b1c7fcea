import { type SQL, sql } from 'drizzle-orm';
import type { Database } from '../client.ts';
import { bytesBytea } from './bytea.ts';

/** No bound: a transaction whose record file is not ingested is read up to the newest. */
const MAX_TIMESTAMP = 9_223_372_036_854_775_807n;

/**
 * The transaction a transaction id names: the first of those with its payer and valid start, by consensus time (a
 * scheduled or child transaction shares the id, and comes after its parent). `transaction__transaction_id`.
 */
export async function transactionTimestampById(
  db: Database,
  payerAccountId: bigint,
  validStartNs: bigint,
): Promise<bigint | undefined> {
  const rows = await db.rows<{ consensus_timestamp: string }>(sql`
    select consensus_timestamp from transaction
    where valid_start_ns = ${validStartNs} and payer_account_id = ${payerAccountId}
    order by consensus_timestamp limit 1`);
  return rows[0] && BigInt(rows[0].consensus_timestamp);
}

/** The consensus timestamp of the contract transaction with this 32-byte Ethereum hash (`contract_transaction_hash`). */
export async function transactionTimestampByHash(db: Database, hash: Uint8Array): Promise<bigint | undefined> {
  const rows = await db.rows<{ consensus_timestamp: string }>(sql`
    select consensus_timestamp from contract_transaction_hash
    where hash = ${bytesBytea(hash)} order by consensus_timestamp limit 1`);
  return rows[0] && BigInt(rows[0].consensus_timestamp);
}

/** What a replay needs of one contract transaction. int8 columns are strings. */
export interface OpcodeSourceRow extends Record<string, unknown> {
  /** `transaction.type`: 7 ContractCall, 8 ContractCreate, 50 EthereumTransaction. */
  transaction_type: number | null;
  contract_id: string | null;
  sender_id: string | null;
  payer_account_id: string;
  gas_limit: string;
  amount: string | null;
  function_parameters: Uint8Array | null;
  /** The Ethereum transaction's fields, when it is one. */
  eth_type: number | null;
  eth_to: Uint8Array | null;
  eth_value: Uint8Array | null;
  eth_gas_limit: string | null;
  eth_call_data: Uint8Array | null;
  eth_nonce: string | null;
  /** A type 4 transaction's authorizations, as the importer stores them. */
  eth_authorization_list: unknown[] | null;
  /**
   * The call data file (`call_data_id`) as it stood at the transaction: its last create or update and the appends
   * after it (FileCreate 17, FileUpdate 19, FileAppend 16). The consensus node keeps call data there as hex text.
   */
  eth_call_data_file: Uint8Array | null;
  /** A HAPI ContractCreate's init code: `contract.initcode`, or else its bytecode file (hex text) at the time. */
  create_initcode: Uint8Array | null;
  create_initcode_file: Uint8Array | null;
  /** The containing record file (smallest `consensus_end` at or after the transaction), if ingested. */
  block_index: string | null;
  block_start: string | null;
  block_end: string | null;
  block_hash: string | null;
}

/** `file_data` of a file as it stood at `timestamp`: its last create or update and the appends after it. */
const fileContent = (file: SQL, timestamp: bigint) => sql`
  (select string_agg(fd.file_data, ''::bytea order by fd.consensus_timestamp) from file_data fd
    where fd.entity_id = ${file} and fd.transaction_type in (16, 17, 19) and fd.consensus_timestamp <= ${timestamp}
      and fd.consensus_timestamp >= (select max(l.consensus_timestamp) from file_data l
        where l.entity_id = ${file} and l.transaction_type in (17, 19) and l.consensus_timestamp <= ${timestamp}))`;

/** The contract result at `timestamp`, its transaction and block; undefined without a `contract_result`. */
export async function opcodeSource(db: Database, timestamp: bigint): Promise<OpcodeSourceRow | undefined> {
  const rows = await db.rows<OpcodeSourceRow>(sql`
    select t.type as transaction_type, cr.contract_id, cr.sender_id, cr.payer_account_id, cr.gas_limit, cr.amount,
      cr.function_parameters, et.type as eth_type, et.to_address as eth_to, et.value as eth_value,
      et.gas_limit as eth_gas_limit, et.call_data as eth_call_data, et.nonce as eth_nonce,
      et.authorization_list as eth_authorization_list,
      case when et.call_data_id is not null then ${fileContent(sql`et.call_data_id`, timestamp)} end as eth_call_data_file,
      case when t.type = 8 then c.initcode end as create_initcode,
      case when t.type = 8 and c.initcode is null and c.file_id is not null
        then ${fileContent(sql`c.file_id`, timestamp)} end as create_initcode_file,
      rf.index as block_index, rf.consensus_start as block_start, rf.consensus_end as block_end, rf.hash as block_hash
    from contract_result cr
    left join transaction t on t.consensus_timestamp = cr.consensus_timestamp
    left join ethereum_transaction et on et.consensus_timestamp = cr.consensus_timestamp
    left join contract c on c.id = cr.contract_id
    left join lateral (
      select index, consensus_start, consensus_end, hash from record_file
      where consensus_end >= ${timestamp} order by consensus_end limit 1
    ) rf on true
    where cr.consensus_timestamp = ${timestamp}`);
  return rows[0];
}

/**
 * The accounts whose delegation a transaction's authorizations set: its child CryptoUpdate records (type 15), as the
 * consensus node reports each applied authorization. `parent_consensus_timestamp` has no index: the children are
 * read from `transaction__type_consensus_timestamp` between the parent and the end of its record file (children
 * share their parent's file), so the scan does not run through every later CryptoUpdate.
 */
export async function delegationUpdates(db: Database, parentTimestamp: bigint): Promise<Set<bigint>> {
  const rows = await db.rows<{ entity_id: string }>(sql`
    select entity_id from transaction
    where parent_consensus_timestamp = ${parentTimestamp} and type = 15 and entity_id is not null
      and consensus_timestamp > ${parentTimestamp}
      and consensus_timestamp <= coalesce(
        (select consensus_end from record_file where consensus_end >= ${parentTimestamp} order by consensus_end limit 1),
        ${MAX_TIMESTAMP})`);
  return new Set(rows.map((row) => BigInt(row.entity_id)));
}
