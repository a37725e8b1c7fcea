import type { Database } from '../../../../db/client.ts';
import { lastFileWrite } from '../../../../db/queries/network-fees-schedule.ts';
import { failureLines } from '../../../failure-line.ts';
import { LONG_MAX } from '../../../params/java/numbers.ts';
import { loadSystemFiles } from '../system-files.ts';
import { genesisSchedule } from './genesis.ts';
import { FEE_SCHEDULE_MESSAGE, type SimpleFeeSchedule, scheduleFromFile } from './schedule.ts';

/** How long a schedule is used before the database is asked whether 0.0.113 changed (the reference's interval). */
const REFRESH_INTERVAL_NS = 10n * 60n * 1_000_000_000n;

interface Cached {
  schedule: SimpleFeeSchedule;
  /** The file's last write the schedule reflects; undefined while the genesis schedule stands in. */
  lastWrite: bigint | undefined;
  checkedAt: bigint;
}

/** Per isolate and per file id (a network's shard and realm name its 0.0.113). */
const cache = new Map<bigint, Cached>();
const pending = new Map<bigint, Promise<SimpleFeeSchedule>>();

/**
 * The simple-fees schedule in force: the latest complete version of the file that decodes into a valid schedule,
 * else the consensus node's genesis schedule. Decoded once and reused; at most every ten minutes one statement
 * checks for a newer write, and only a newer write is loaded and decoded again. Concurrent requests share one
 * check.
 */
export function currentSchedule(db: Database, fileId: bigint, now: bigint): Promise<SimpleFeeSchedule> {
  const cached = cache.get(fileId);
  // a clock that went backwards (test mode) counts as due
  if (cached && now >= cached.checkedAt && now - cached.checkedAt < REFRESH_INTERVAL_NS) {
    return Promise.resolve(cached.schedule);
  }
  let check = pending.get(fileId);
  if (!check) {
    check = refresh(db, fileId, now, cached)
      .catch((error: unknown) => keepOnFailure(error, fileId, now, cached))
      .finally(() => pending.delete(fileId));
    pending.set(fileId, check);
  }
  return check;
}

/**
 * A failed check keeps a schedule already decoded for another interval (INTRINSIC estimates need no database), and
 * fails the request when there is none.
 */
function keepOnFailure(error: unknown, fileId: bigint, now: bigint, cached: Cached | undefined): SimpleFeeSchedule {
  if (!cached) throw error;
  const message = error instanceof Error ? error.message : String(error);
  failureLines.write(`fee schedule ${message}`, {
    msg: 'fee schedule check failed; the decoded schedule stays in use',
    level: 'warn',
    error: message,
  });
  cache.set(fileId, { ...cached, checkedAt: now });
  return cached.schedule;
}

async function refresh(
  db: Database,
  fileId: bigint,
  now: bigint,
  cached: Cached | undefined,
): Promise<SimpleFeeSchedule> {
  const lastWrite = await lastFileWrite(db, fileId);
  if (cached && lastWrite === cached.lastWrite) {
    cache.set(fileId, { ...cached, checkedAt: now });
    return cached.schedule;
  }
  const [file] = await loadSystemFiles(db, [{ id: fileId, message: FEE_SCHEDULE_MESSAGE }], {
    empty: true,
    lower: 0n,
    upper: LONG_MAX,
  });
  const schedule = (file && scheduleFromFile(file.data)) ?? genesisSchedule();
  cache.set(fileId, { schedule, lastWrite, checkedAt: now });
  return schedule;
}
