import { sql } from 'drizzle-orm';
import type { Database } from '../client.ts';

/** A custom fee row defines fees when any of its lists is non-empty. */
const HAS_FEES = sql`(coalesce(jsonb_array_length(cf.fixed_fees), 0) > 0
  or coalesce(jsonb_array_length(cf.fractional_fees), 0) > 0
  or coalesce(jsonb_array_length(cf.royalty_fees), 0) > 0)`;

/** Whether the topic exists and has fixed custom fees (HIP-991); false for a topic the mirror does not know. */
export async function topicHasCustomFees(db: Database, topicId: bigint): Promise<boolean> {
  const [row] = await db.rows<{ has_fees: boolean }>(sql`
    select exists (
      select 1 from topic t join custom_fee cf on cf.entity_id = t.id
       where t.id = ${topicId} and coalesce(jsonb_array_length(cf.fixed_fees), 0) > 0
    ) as has_fees`);
  return row?.has_fees === true;
}

export interface TokenKind extends Record<string, unknown> {
  token_id: string;
  fungible: boolean;
  has_custom_fees: boolean;
}

/** Type and custom fee presence of each token among `tokenIds` that exists; one statement. */
export function tokenKinds(db: Database, tokenIds: readonly bigint[]): Promise<TokenKind[]> {
  if (tokenIds.length === 0) return Promise.resolve([]);
  const ids = sql.join(
    tokenIds.map((id) => sql`${id}::bigint`),
    sql`, `,
  );
  return db.rows<TokenKind>(sql`
    select t.token_id, t.type = 'FUNGIBLE_COMMON' as fungible, coalesce(${HAS_FEES}, false) as has_custom_fees
      from token t left join custom_fee cf on cf.entity_id = t.token_id
     where t.token_id in (${ids})`);
}
