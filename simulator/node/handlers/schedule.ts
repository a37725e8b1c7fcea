/**
 * ScheduleService transactions submitted to a node: a ScheduleCreate holds any transaction the node can run, with
 * the keys that signed the create as its first signatories; ScheduleSign adds the keys that sign it; once the
 * signatories satisfy every key the scheduled transaction needs (its payer's included), it runs one nanosecond
 * later under the schedule's transaction id (`scheduled`), unless it waits for its expiry. ScheduleDelete needs the
 * admin key.
 */
import { schedulePb } from '../../ledger/ids.ts';
import type { Schedule } from '../../ledger/ledger.ts';
import { nsOf, numOf } from '../entity-ids.ts';
import { checkMemo, ensure, Failed, type NodeTx, type Pb, type TxHandler, textOf } from '../handling.ts';
import { nodeTypes } from '../node-proto.ts';
import { keyFromPb } from '../signatures.ts';
import { liveAccount } from './lookups.ts';

const MAX_LIFETIME_NS = 5_356_800n * 1_000_000_000n;
const DEFAULT_LIFETIME_NS = 1_800n * 1_000_000_000n;

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Every key of the transaction's signature map that verifies: what a schedule collects as signatories. */
function verifiedSignatories(tx: NodeTx): string[] {
  return tx.signatures.verifiedKeys(tx.signatures.namedKeys()).map((key) => hex(key.publicKey));
}

function identity(data: Pb, payer: bigint): string {
  const body = nodeTypes().SchedulableTransactionBody;
  const scheduled = body.encode(body.fromObject((data.scheduledTransactionBody ?? {}) as Pb)).finish();
  const admin = data.adminKey
    ? hex(
        nodeTypes()
          .Key.encode(nodeTypes().Key.fromObject(data.adminKey as Pb))
          .finish(),
      )
    : '';
  return [hex(scheduled), textOf(data.memo), admin, String(payer)].join('/');
}

function liveSchedule(tx: NodeTx, id: unknown): Schedule {
  const schedule = tx.net.ledger.schedules.get(numOf(id, 'scheduleNum'));
  ensure(schedule?.submitted, 'INVALID_SCHEDULE_ID');
  ensure(!schedule.submitted.deletedNs, 'SCHEDULE_ALREADY_DELETED');
  ensure(!schedule.executed, 'SCHEDULE_ALREADY_EXECUTED');
  return schedule;
}

export const scheduleCreate: TxHandler = {
  price: () => ({ kind: 'scheduleCreate' }),
  pure: (data) => {
    ensure(data.scheduledTransactionBody, 'INVALID_TRANSACTION');
    checkMemo(textOf(data.memo));
    if (data.adminKey) ensure(keyFromPb(data.adminKey), 'INVALID_ADMIN_KEY');
  },
  handle: (tx) => {
    const { net, data, payer, scheduler } = tx;
    const { ledger } = net;
    const scheduled = data.scheduledTransactionBody as Pb;
    const kind = scheduler.scheduledKind(scheduled);
    ensure(kind, 'SCHEDULED_TRANSACTION_NOT_IN_WHITELIST');
    scheduler.pureCheck(kind, scheduled[kind] as Pb, scheduled);
    const schedulePayer = data.payerAccountID ? liveAccount(ledger, data.payerAccountID).num : payer;
    const adminKey = data.adminKey ? keyFromPb(data.adminKey) : undefined;
    const id = identity(data, schedulePayer);
    for (const existing of ledger.schedules.values()) {
      const submitted = existing.submitted;
      if (!submitted || existing.executed || submitted.deletedNs) continue;
      if (identity({ ...submitted.body, memo: submitted.memo }, existing.payer) === id) {
        throw new Failed('IDENTICAL_SCHEDULE_ALREADY_CREATED', {
          scheduleID: schedulePb(existing.num),
          scheduledTransactionID: existing.scheduledId,
        });
      }
    }
    const expiry = data.expiration_time ? nsOf(data.expiration_time) : undefined;
    let created: Schedule | undefined;
    return {
      requiredKeys: adminKey ? [adminKey] : [],
      execute: ({ consensusNs, transactionId }) => {
        if (expiry !== undefined) {
          ensure(expiry > consensusNs, 'SCHEDULE_EXPIRATION_TIME_MUST_BE_HIGHER_THAN_CONSENSUS_TIME');
          ensure(expiry - consensusNs <= MAX_LIFETIME_NS, 'SCHEDULE_EXPIRATION_TIME_TOO_FAR_IN_FUTURE');
        }
        const num = ledger.allocateEntity();
        const scheduledId = { ...transactionId, scheduled: true };
        created = {
          num,
          payer: schedulePayer,
          creator: payer,
          awaiting: 0n,
          transfers: [],
          createdAt: consensusNs,
          executed: false,
          scheduledId,
          submitted: {
            body: { scheduledTransactionBody: scheduled, ...(data.adminKey ? { adminKey: data.adminKey } : {}) },
            memo: textOf(data.memo),
            ...(adminKey ? { adminKey } : {}),
            signatories: verifiedSignatories(tx),
            expirationNs: expiry ?? consensusNs + DEFAULT_LIFETIME_NS,
            waitForExpiry: Boolean(data.wait_for_expiry),
          },
        };
        ledger.schedules.set(num, created);
        return { receipt: { scheduleID: schedulePb(num), scheduledTransactionID: scheduledId } };
      },
      after: async (item) => {
        if (created) await scheduler.executeIfReady(created, item.consensusNs);
      },
    };
  },
};

export const scheduleSign: TxHandler = {
  price: () => ({ kind: 'scheduleSign' }),
  pure: (data) => ensure(data.scheduleID, 'INVALID_SCHEDULE_ID'),
  handle: (tx) => {
    const schedule = liveSchedule(tx, tx.data.scheduleID);
    const submitted = schedule.submitted;
    ensure(submitted, 'INVALID_SCHEDULE_ID');
    const added = verifiedSignatories(tx).filter((key) => !submitted.signatories.includes(key));
    return {
      requiredKeys: [],
      execute: ({ consensusNs }) => {
        ensure(consensusNs < submitted.expirationNs, 'INVALID_SCHEDULE_ID');
        submitted.signatories.push(...added);
        return { receipt: { scheduledTransactionID: schedule.scheduledId } };
      },
      after: (item) => tx.scheduler.executeIfReady(schedule, item.consensusNs),
    };
  },
};

export const scheduleDelete: TxHandler = {
  price: () => ({ kind: 'scheduleDelete' }),
  pure: (data) => ensure(data.scheduleID, 'INVALID_SCHEDULE_ID'),
  handle: (tx) => {
    const schedule = liveSchedule(tx, tx.data.scheduleID);
    const adminKey = schedule.submitted?.adminKey;
    ensure(adminKey, 'SCHEDULE_IS_IMMUTABLE');
    return {
      requiredKeys: [adminKey],
      execute: ({ consensusNs }) => {
        if (schedule.submitted) schedule.submitted.deletedNs = consensusNs;
        return {};
      },
    };
  },
};
