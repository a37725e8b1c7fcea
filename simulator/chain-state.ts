/**
 * Where a run stopped (`chain.json` in the output directory): the record running hash, the next block number, the
 * last consensus time, the next entity number, the block chain's hashes, and the whole model (the ledger, where
 * the mix stands, the node count). A run with `--continue` picks them up, so its files extend the same chain (an
 * ingest that read the earlier files accepts the new ones) and describe the same ledger. One file, replaced by a
 * rename: in a live run after every stream file, so the model matches the last file written even when the run is
 * killed; in a run of a fixed number of files when it stops. A fixed run killed before then leaves the earlier
 * chain.json, and continuing from it with the same options writes the same files again.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Json } from './ledger/snapshot.ts';
import type { MixState } from './mix/mix.ts';
import type { BlockChainState } from './write/block-stream.ts';

export const CHAIN_FILE = 'chain.json';

export interface ChainState {
  readonly recordRunningHash: string;
  readonly nextBlock: string;
  readonly lastConsensusNs: string;
  readonly nextEntity: string;
  readonly blocks: BlockChainState | undefined;
  readonly nodes: number;
  readonly mix: MixState;
  /** The ledger model (ledger/snapshot.ts). */
  readonly ledger: Json;
}

export function readChainState(out: string): ChainState | undefined {
  const file = path.join(out, CHAIN_FILE);
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as Partial<ChainState>;
  if (state.ledger === undefined || state.mix === undefined) {
    throw new Error(
      `${out} was written by an earlier simulator that saved no model to continue from: use an empty directory`,
    );
  }
  return state as ChainState;
}

export function writeChainState(out: string, state: ChainState): void {
  const file = path.join(out, CHAIN_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(state));
  renameSync(`${file}.tmp`, file);
}

/**
 * The seed of a continued run: the run's seed with the chain's state, so a continuation draws keys, aliases and
 * EVM addresses no earlier run drew, and the same files continued with the same seed give the same bytes.
 */
export function continuedSeed(seed: string, chain: ChainState): string {
  return [seed, chain.recordRunningHash, chain.blocks?.previousRoot ?? '', chain.lastConsensusNs].join('/');
}
