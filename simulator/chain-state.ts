/**
 * Where a run left the streams it wrote (`chain.json` in the output directory): the record running hash, the
 * next block number, the last consensus time, the next entity number and the block chain's hashes. A run with
 * `--continue` picks them up, so its files extend the same chain (an ingest that read the earlier files
 * accepts the new ones) instead of starting a second chain at block 0.
 */
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { BlockChainState } from './write/block-stream.ts';

export const CHAIN_FILE = 'chain.json';

export interface ChainState {
  readonly recordRunningHash: string;
  readonly nextBlock: string;
  readonly lastConsensusNs: string;
  readonly nextEntity: string;
  readonly blocks: BlockChainState | undefined;
}

export function readChainState(out: string): ChainState | undefined {
  const file = path.join(out, CHAIN_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as ChainState) : undefined;
}

export function writeChainState(out: string, state: ChainState): void {
  const file = path.join(out, CHAIN_FILE);
  writeFileSync(`${file}.tmp`, `${JSON.stringify(state, null, 1)}\n`);
  renameSync(`${file}.tmp`, file);
}
