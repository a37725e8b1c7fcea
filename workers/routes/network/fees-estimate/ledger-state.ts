import type { Database } from '../../../../db/client.ts';
import { tokenKinds, topicHasCustomFees } from '../../../../db/queries/network-fees-state.ts';
import type { LedgerState } from './calculators/common.ts';

/** STATE mode's view of the ledger: the mirror's topic, token and custom fee tables, read live. */
export function mirrorLedger(db: Database): LedgerState {
  return {
    topicHasCustomFees: (topicId) => topicHasCustomFees(db, topicId),
    async tokens(tokenIds) {
      const rows = await tokenKinds(db, [...new Set(tokenIds)]);
      return new Map(
        rows.map((row) => [BigInt(row.token_id), { fungible: row.fungible, hasCustomFees: row.has_custom_fees }]),
      );
    },
  };
}
