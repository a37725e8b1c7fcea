/**
 * A simulated ledger written in stages (the first run, then `--continue` runs), with the model after each stage and
 * the block that stage ended on: the state at that block's `consensus_end` is exactly that stage's model, so a test
 * can compare what the mirror answers at a historical block with the model of its stage.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type IngestSummary, runIngest } from '../../ingest/pipeline/run.ts';
import { DirStore } from '../../ingest/sources/dir-store.ts';
import { RecordStreamSource } from '../../ingest/sources/record-stream-source.ts';
import { readChainState } from '../../simulator/chain-state.ts';
import type { LedgerSnapshot } from '../../simulator/ledger/export.ts';
import { parseOptions } from '../../simulator/main.ts';
import type { MixWeights } from '../../simulator/mix/mix.ts';
import { simulate } from '../../simulator/run.ts';
import { ADDRESS_BOOK_FILE, LEDGER_FILE } from '../../simulator/write/layout.ts';

export interface SimnetStage {
  /** The ledger model when the stage's last file closed. */
  readonly model: LedgerSnapshot;
  /** The number of the stage's last block (`record_file.index`). */
  readonly lastBlock: bigint;
}

export interface StagesOptions {
  readonly out: string;
  readonly seed: string;
  readonly tps: number;
  /** Files written by each stage, in order. */
  readonly files: readonly number[];
  readonly weights?: Partial<MixWeights>;
}

export async function simulateStages(options: StagesOptions): Promise<SimnetStage[]> {
  const stages: SimnetStage[] = [];
  for (const [index, files] of options.files.entries()) {
    await simulate({
      ...parseOptions([
        '--out',
        options.out,
        '--files',
        String(files),
        '--tps',
        String(options.tps),
        '--seed',
        options.seed,
        ...(index > 0 ? ['--continue'] : []),
      ]),
      ...(options.weights ? { weights: options.weights } : {}),
    });
    const chain = readChainState(options.out);
    if (!chain) throw new Error(`simulateStages: no chain state in ${options.out}`);
    stages.push({
      model: JSON.parse(readFileSync(path.join(options.out, LEDGER_FILE), 'utf8')) as LedgerSnapshot,
      lastBlock: BigInt(chain.nextBlock) - 1n,
    });
  }
  return stages;
}

/**
 * Ingests every record file in `out` into the database at `url`, as `npm run ingest -- --until-idle` does; what it
 * ingested.
 */
export async function ingestStreams(out: string, url: string): Promise<IngestSummary> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await runIngest({
      source: new RecordStreamSource(new DirStore(out)),
      client,
      bootstrapAddressBook: new Uint8Array(readFileSync(path.join(out, ADDRESS_BOOK_FILE))),
      untilIdle: true,
      log: () => {},
    });
  } finally {
    await client.end();
  }
}
