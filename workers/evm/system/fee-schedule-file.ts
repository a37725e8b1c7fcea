/**
 * The usage-based fee schedule in force at a block: file 0.0.111's latest version by then, its current schedule, or
 * its next one once the block is past the current one's expiry second (the consensus node's legacy FeeManager lookup).
 * The reference's web3 runs the node with `fees.simpleFeesEnabled=false`, so a synthetic HAPI body inside a call is
 * priced by these resource prices, not by the simple-fees schedule of 0.0.113.
 */
import type { Decoded } from '../../format/protobuf-strict.ts';
import { systemFileId } from '../../routes/network/common.ts';
import { CURRENT_AND_NEXT_FEE_SCHEDULE } from '../../routes/network/system-file-schemas.ts';
import { loadSystemFiles } from '../../routes/network/system-files.ts';
import type { LedgerReader } from '../types.ts';

/** One provider's resource prices, in thousandths of a tinycent. */
export interface FeeComponents {
  readonly min: bigint;
  readonly max: bigint;
  readonly constant: bigint;
  readonly bpt: bigint;
  readonly vpt: bigint;
  readonly rbh: bigint;
  readonly sbh: bigint;
  readonly gas: bigint;
  readonly bpr: bigint;
  readonly sbpr: bigint;
}

export interface FeeData {
  readonly node: FeeComponents;
  readonly network: FeeComponents;
  readonly service: FeeComponents;
}

/** The prices of a `HederaFunctionality` and `SubType`; undefined where the schedule has no entry. */
export type FeeSchedule = (functionality: number, subType: number) => FeeData | undefined;

const FEE_SCHEDULE_FILE = 111;
const NS_PER_SECOND = 1_000_000_000n;

const NO_SCHEDULE: FeeSchedule = () => undefined;

const long = (value: unknown): bigint => (typeof value === 'bigint' ? value : 0n);

function componentsOf(decoded: Decoded | undefined): FeeComponents {
  const part = decoded ?? {};
  return {
    min: long(part.min),
    max: long(part.max),
    constant: long(part.constant),
    bpt: long(part.bpt),
    vpt: long(part.vpt),
    rbh: long(part.rbh),
    sbh: long(part.sbh),
    gas: long(part.gas),
    bpr: long(part.bpr),
    sbpr: long(part.sbpr),
  };
}

/** Entries by functionality and subtype; the first entry for a pair wins. */
function scheduleOf(schedule: Decoded | undefined): FeeSchedule {
  const entries = new Map<string, FeeData>();
  for (const entry of (schedule?.transactionFeeSchedule as Decoded[] | undefined) ?? []) {
    const functionality = (entry.hederaFunctionality as number | undefined) ?? 0;
    for (const fees of (entry.fees as Decoded[] | undefined) ?? []) {
      const key = `${functionality}/${(fees.subType as number | undefined) ?? 0}`;
      if (entries.has(key)) continue;
      entries.set(key, {
        node: componentsOf(fees.nodedata as Decoded | undefined),
        network: componentsOf(fees.networkdata as Decoded | undefined),
        service: componentsOf(fees.servicedata as Decoded | undefined),
      });
    }
  }
  return (functionality, subType) => entries.get(`${functionality}/${subType}`);
}

/** The schedule in force at the reader's block; one with no entries when the ledger never wrote 0.0.111. */
export async function feeScheduleAt(reader: LedgerReader): Promise<FeeSchedule> {
  const { block, settings } = reader;
  const upper = block.historical ? block.consensusEnd : 2n ** 63n - 1n;
  const [file] = await loadSystemFiles(
    reader.db,
    [
      {
        id: systemFileId({ shard: Number(settings.shard), realm: Number(settings.realm) }, FEE_SCHEDULE_FILE),
        message: CURRENT_AND_NEXT_FEE_SCHEDULE,
      },
    ],
    { empty: false, lower: 0n, upper },
  );
  if (!file) return NO_SCHEDULE;
  const current = file.data.currentFeeSchedule as Decoded | undefined;
  const expiry = long((current?.expiryTime as Decoded | undefined)?.seconds);
  const expired = block.consensusStart / NS_PER_SECOND > expiry;
  return scheduleOf(expired ? (file.data.nextFeeSchedule as Decoded | undefined) : current);
}
