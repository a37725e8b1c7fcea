import type pg from 'pg';

type Row = Record<string, unknown>;

/** Inserts one row; values are passed as parameters (bytea as Buffer, arrays as JS arrays). */
export async function insertRow(sql: pg.Client, table: string, row: Row): Promise<void> {
  const columns = Object.keys(row);
  const placeholders = columns.map((_, i) => `$${i + 1}`);
  await sql.query(
    `insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values (${placeholders.join(', ')})`,
    Object.values(row),
  );
}

/** Nanoseconds of `seconds.nanos` text, the API's timestamp form. */
export const ns = (timestamp: string): bigint => {
  const [seconds = '0', nanos = '0'] = timestamp.split('.');
  return BigInt(seconds) * 1_000_000_000n + BigInt(nanos.padEnd(9, '0'));
};

export interface TransactionInput extends Row {
  consensus_timestamp: bigint;
  payer_account_id: bigint;
}

/** A successful CRYPTOTRANSFER with the schema's defaults, unless `row` says otherwise. */
export async function insertTransaction(sql: pg.Client, row: TransactionInput): Promise<void> {
  await insertRow(sql, 'transaction', {
    type: 14,
    result: 22,
    valid_start_ns: row.consensus_timestamp - 1n,
    valid_duration_seconds: 120,
    node_account_id: 3,
    max_fee: 100,
    charged_tx_fee: 7,
    transaction_hash: Buffer.alloc(48, Number(row.consensus_timestamp % 251n)),
    index: 1,
    ...row,
  });
}

export async function insertTransactionHash(
  sql: pg.Client,
  row: { consensus_timestamp: bigint; hash: Buffer; payer_account_id: bigint | null },
): Promise<void> {
  await insertRow(sql, 'transaction_hash', {
    consensus_timestamp: row.consensus_timestamp,
    hash: row.hash.subarray(0, 32),
    hash_suffix: row.hash.subarray(32),
    payer_account_id: row.payer_account_id,
  });
}

export async function insertCryptoTransfer(
  sql: pg.Client,
  row: { consensus_timestamp: bigint; entity_id: bigint; amount: bigint; payer_account_id: bigint },
): Promise<void> {
  await insertRow(sql, 'crypto_transfer', { is_approval: false, ...row });
}
