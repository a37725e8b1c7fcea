import genesisJson from './genesis-simple-fees.json' with { type: 'json' };
import { type ScheduleJson, type SimpleFeeSchedule, scheduleFromJson } from './schedule.ts';

/**
 * The consensus node's genesis simple-fees schedule, used while the database holds no usable 0.0.113. The JSON is
 * `hedera-node/hedera-file-service-impl/src/main/resources/genesis/simpleFeesSchedules.json` of hiero-consensus-node
 * v0.73 (the file as of commit 6d945a38d0, the last change before the 0.74 version roll), the release the reference
 * mirror node's fee estimation embeds.
 */

let genesis: SimpleFeeSchedule | undefined;

/** Built on first use and kept for the isolate's life. */
export function genesisSchedule(): SimpleFeeSchedule {
  genesis ??= scheduleFromJson(genesisJson satisfies ScheduleJson);
  return genesis;
}
