/**
 * The EVM rules a block runs under. Mainnet changed its EVM version at these blocks; the other networks run one
 * version throughout, and a `latest` call always runs the newest. The consensus node's versions map onto
 * Ethereum hardforks: v0.50 rebased on Cancun, v0.46 on Shanghai, older ones on London (their finer differences
 * are not reproduced).
 */
import { Hardfork } from '@ethereumjs/common';
import type { BlockContext, EvmSettings } from './types.ts';

/** [first block, version as minor number] in ascending order. */
const MAINNET_VERSIONS: readonly (readonly [bigint, number])[] = [
  [0n, 30],
  [44_029_066n, 34],
  [49_117_794n, 38],
  [60_258_042n, 46],
  [65_435_845n, 50],
  [66_602_102n, 51],
  [85_011_472n, 65],
  [85_659_065n, 66],
  [87_129_575n, 67],
];

const CURRENT_VERSION = 67;

/** The consensus node's EVM version (the minor number of v0.N) for a call at `block`. */
export function evmVersionAt(block: BlockContext, settings: EvmSettings): number {
  if (!block.historical || settings.network !== 'MAINNET') return CURRENT_VERSION;
  let version = CURRENT_VERSION;
  for (const [first, minor] of MAINNET_VERSIONS) if (block.number >= first) version = minor;
  return version;
}

export function hardforkOf(version: number): Hardfork {
  if (version >= 50) return Hardfork.Cancun;
  if (version >= 46) return Hardfork.Shanghai;
  return Hardfork.London;
}
