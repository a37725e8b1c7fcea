import type { BlockSource } from '../sources/block-source.ts';
import type { Log } from './run.ts';

/**
 * The block an empty database starts from: `startBlock` (-1: the earliest the source has), else block 0. Without
 * `startBlock`, a source whose first block is later would be waited on forever (or, until idle, end the run with
 * nothing read): an until-idle run stops with the reason, a polling one says once what it waits for.
 */
export async function firstBlock(
  source: BlockSource,
  options: { startBlock?: bigint; untilIdle?: boolean },
  log: Log,
): Promise<bigint> {
  if (options.startBlock === -1n) {
    const earliest = await source.earliest();
    if (earliest === undefined) throw new Error(`${source.description} has no blocks to start from`);
    return earliest;
  }
  if (options.startBlock !== undefined) return options.startBlock;
  // a source that cannot say (a block node not reachable yet) is left to the stream's own retries
  const earliest = await source.earliest().catch(() => undefined);
  if (earliest !== undefined && earliest > 0n) {
    const reason = `${source.description} starts at block ${earliest}, not 0: --start-block -1 (or ${earliest}) starts there`;
    if (options.untilIdle) throw new Error(reason);
    log({ msg: 'waiting for block 0', level: 'warn', reason });
  }
  return 0n;
}
