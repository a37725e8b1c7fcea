/**
 * The usage-based fee schedule in force at a block: file 0.0.111's latest version by then, its current schedule, or
 * its next one once the block is past the current one's expiry second (the consensus node's legacy FeeManager lookup).
 * The reference's web3 runs the node with `fees.simpleFeesEnabled=false`, so a synthetic HAPI body inside a call is
 * priced by these resource prices, not by the simple-fees schedule of 0.0.113.
 */
import type { Decoded } from '../../format/protobuf-strict.ts';
import { systemFileId } from '../../routes/network/common.ts';
import { CURRENT_AND_NEXT_FEE_SCHEDULE } from '../../routes/network/system-file-schemas.ts';
import type { SystemFile, SystemFileRequest } from '../../routes/network/system-files.ts';
import type { BlockContext, LedgerReader } from '../types.ts';

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

/** The prices of a `HederaFunctionality` and `SubType`. */
export type FeeSchedule = (functionality: number, subType: number) => FeeData;

const FEE_SCHEDULE_FILE = 111;
const NS_PER_SECOND = 1_000_000_000n;

const long = (value: unknown): bigint => (typeof value === 'bigint' ? value : 0n);

/** FeeManager's DEFAULT_FEE_DATA for a body the schedule has no entry for: 100 tinycents a provider. */
const DEFAULT_COMPONENTS: FeeComponents = {
  min: 100_000n,
  max: 100_000n,
  constant: 0n,
  bpt: 0n,
  vpt: 0n,
  rbh: 0n,
  sbh: 0n,
  gas: 0n,
  bpr: 0n,
  sbpr: 0n,
};
const DEFAULT_FEE_DATA: FeeData = {
  node: DEFAULT_COMPONENTS,
  network: DEFAULT_COMPONENTS,
  service: DEFAULT_COMPONENTS,
};

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

const feeDataOf = (fees: Decoded): FeeData => ({
  node: componentsOf(fees.nodedata as Decoded | undefined),
  network: componentsOf(fees.networkdata as Decoded | undefined),
  service: componentsOf(fees.servicedata as Decoded | undefined),
});

/**
 * Entries by functionality and subtype as FeeManager's `populateFeeDataMap` keeps them: each of `fees` under its
 * subtype, or the deprecated single `feeData` as DEFAULT; a later entry for a pair replaces an earlier one.
 */
function scheduleOf(schedule: Decoded | undefined): FeeSchedule {
  const entries = new Map<string, FeeData>();
  for (const entry of (schedule?.transactionFeeSchedule as Decoded[] | undefined) ?? []) {
    const functionality = (entry.hederaFunctionality as number | undefined) ?? 0;
    const fees = (entry.fees as Decoded[] | undefined) ?? [];
    for (const data of fees)
      entries.set(`${functionality}/${(data.subType as number | undefined) ?? 0}`, feeDataOf(data));
    const single = entry.feeData as Decoded | undefined;
    if (fees.length === 0 && single) entries.set(`${functionality}/0`, feeDataOf(single));
  }
  return (functionality, subType) => entries.get(`${functionality}/${subType}`) ?? DEFAULT_FEE_DATA;
}

/** The request for file 0.0.111 on the reader's network (ledger-reads.ts loads it with 0.0.112). */
export const feeScheduleFile = ({ settings }: LedgerReader): SystemFileRequest => ({
  id: systemFileId({ shard: Number(settings.shard), realm: Number(settings.realm) }, FEE_SCHEDULE_FILE),
  message: CURRENT_AND_NEXT_FEE_SCHEDULE,
});

/**
 * The schedule in force at `block`, from the file's latest version by then; one with no entries when the ledger
 * never wrote 0.0.111.
 */
export function feeScheduleOf(file: SystemFile | undefined, block: BlockContext): FeeSchedule {
  if (!file) return scheduleOf(undefined);
  const current = file.data.currentFeeSchedule as Decoded | undefined;
  // A current schedule without an expiry expires at once; a missing next schedule is the current one.
  const expiry = long((current?.expiryTime as Decoded | undefined)?.seconds);
  const expired = block.consensusStart / NS_PER_SECOND > expiry;
  return scheduleOf(expired ? ((file.data.nextFeeSchedule as Decoded | undefined) ?? current) : current);
}
