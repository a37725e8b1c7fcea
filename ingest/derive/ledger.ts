/**
 * LedgerIdPublication (TSS): a successful one stores the ledger id it publishes in `ledger`, keyed by the id;
 * publishing the same id again replaces the row. `node_contributions` is the reference's JSON form of the
 * contributions: snake_case fields, the history proof key as base64.
 */
import { type ItemContext, serviceBody } from './context.ts';

interface LedgerIdPublicationBody {
  ledger_id?: Uint8Array;
  history_proof_verification_key?: Uint8Array;
  node_contributions?: { node_id?: bigint; weight?: bigint; history_proof_key?: Uint8Array }[];
}

const base64 = (bytes: Uint8Array | undefined) =>
  Buffer.from(bytes?.buffer ?? new ArrayBuffer(0), bytes?.byteOffset ?? 0, bytes?.byteLength ?? 0).toString('base64');

export function ledgerIdPublication(ctx: ItemContext): void {
  const { item } = ctx;
  if (!item.successful) return;
  const body = serviceBody<LedgerIdPublicationBody>(ctx) ?? {};
  ctx.rows.replace('ledger', {
    consensus_timestamp: item.consensusTimestamp,
    history_proof_verification_key: body.history_proof_verification_key ?? new Uint8Array(),
    ledger_id: body.ledger_id ?? new Uint8Array(),
    node_contributions: (body.node_contributions ?? []).map((c) => ({
      history_proof_key: base64(c.history_proof_key),
      node_id: c.node_id ?? 0n,
      weight: c.weight ?? 0n,
    })),
  });
}
