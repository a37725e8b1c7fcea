/** Small native blocks made on the spot that chain onto a given block hash: header, one round, footer, proof. */
import { blockTypes } from '../../proto/block.ts';
import { readBlock } from '../decode/block-reader.ts';

export function chainedBlocks(
  previousHash: Uint8Array,
  first: bigint,
  count: number,
  firstTimestampNs: bigint,
): Map<bigint, Uint8Array[]> {
  const { BlockItem } = blockTypes();
  const out = new Map<bigint, Uint8Array[]>();
  let previous = previousHash;
  for (let i = 0; i < count; i++) {
    const number = first + BigInt(i);
    const ns = firstTimestampNs + BigInt(i) * 2_000_000_000n;
    const items = [
      {
        block_header: {
          hapi_proto_version: { minor: 73 },
          software_version: { minor: 73 },
          number: Number(number),
          block_timestamp: { seconds: Number(ns / 1_000_000_000n), nanos: Number(ns % 1_000_000_000n) },
        },
      },
      { round_header: { round_number: 1000 + Number(number) } },
      {
        block_footer: {
          previous_block_root_hash: previous,
          root_hash_of_all_block_hashes_tree: new Uint8Array(48),
          start_of_block_state_root_hash: new Uint8Array(48),
        },
      },
      { block_proof: { block: Number(number), signed_block_proof: new Uint8Array(48) } },
    ].map((item) => BlockItem.encode(item).finish());
    out.set(number, items);
    previous = readBlock('generated', items, 0).hash;
  }
  return out;
}
