/** The blocks the call and opcodes tests run against, shared by their seeds (plain rows: this folder is compiled with the worker). */

/** The earliest block's hash. */
export const EARLIEST_HASH = 'ef'.repeat(48);

/** Block 0 at `genesis` and block 20 (the latest) 100 s later, as record file rows. */
export const twoBlocks = (genesis: bigint, second: bigint) => [
  { index: 0n, consensus_start: genesis, consensus_end: genesis + second, hash: EARLIEST_HASH },
  {
    index: 20n,
    consensus_start: genesis + 100n * second,
    consensus_end: genesis + 102n * second,
    hash: 'b2'.repeat(48),
  },
];
