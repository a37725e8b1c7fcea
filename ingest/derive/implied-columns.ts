import type { Row } from '../sink/bulk-insert.ts';

/**
 * Columns a change sets even to NULL because of another column it sets (adding the missing ones to `row`):
 * - an entity's public key follows its key (AbstractEntity.setKey): a key that does not reduce to one primitive key
 *   clears it;
 * - an association (a token_account change with its created_timestamp) starts its freeze and KYC status over, NULL
 *   when it does not name one (AbstractTokenAccount's upsert), which readers take from the token.
 */
export function implied(table: string, row: Row): { row: Row; columns: readonly string[] } {
  const set = (column: string) => row[column] !== undefined && row[column] !== null;
  const columns =
    table === 'entity' && set('key')
      ? ['public_key']
      : table === 'token_account' && set('created_timestamp')
        ? ['freeze_status', 'kyc_status']
        : [];
  if (columns.every((column) => column in row)) return { row, columns };
  return { row: { ...Object.fromEntries(columns.map((column) => [column, null])), ...row }, columns };
}
