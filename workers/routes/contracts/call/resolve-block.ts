import type { Database } from '../../../../db/client.ts';
import { type EvmBlockKey, evmBlock } from '../../../../db/queries/evm-blocks.ts';
import type { BlockContext } from '../../../evm/types.ts';
import type { BlockSpec } from './block-spec.ts';

function keyOf(spec: BlockSpec): EvmBlockKey {
  switch (spec.kind) {
    case 'latest':
      return { latest: true };
    case 'earliest':
      return { earliest: true };
    case 'number':
      return { number: spec.number };
    case 'hash':
      return { hashPrefix: spec.hash };
  }
}

/**
 * The record file a call runs on; undefined when there is none. Only the `latest` tag reads current state: any
 * other block, even a number that is the newest, reads history at its `consensus_end`, as the reference does.
 */
export async function resolveBlock(db: Database, spec: BlockSpec): Promise<BlockContext | undefined> {
  const row = await evmBlock(db, keyOf(spec));
  if (!row) return undefined;
  return {
    number: BigInt(row.index),
    consensusStart: BigInt(row.consensus_start),
    consensusEnd: BigInt(row.consensus_end),
    hash: row.hash,
    historical: spec.kind !== 'latest',
  };
}
