/**
 * Scheduled transactions: a creator schedules an hbar transfer that another account must sign. When the
 * creator is that account the transfer runs right away; otherwise it waits for a ScheduleSign. Either way the
 * execution is its own record one nanosecond after the transaction that completed the signatures, with the
 * schedule's transaction id (`scheduled`), `scheduleRef`, and the fee paid by the scheduled payer.
 */
import { accountPb, schedulePb } from '../ledger/ids.ts';
import type { Schedule } from '../ledger/ledger.ts';
import { keyPb } from '../network/keys.ts';
import type { Network } from '../network/network.ts';
import { HbarTransfers } from '../network/transfers.ts';
import { HBAR, maybeMemo, otherUser, payerWith } from './pick.ts';

const INSUFFICIENT_ACCOUNT_BALANCE = 28;
const SCHEDULED_FEE_LIMIT = '100000000';

function scheduledTransfer(schedule: Pick<Schedule, 'transfers'>) {
  const transfers = new HbarTransfers();
  for (const { account, amount } of schedule.transfers) transfers.add(account, amount);
  return transfers;
}

export async function createSchedule(net: Network): Promise<boolean> {
  const { ledger, random } = net;
  const creator = payerWith(net, 20n * HBAR);
  if (!creator?.key) return false;
  const immediate = random.chance(0.4);
  const sender = immediate ? creator : payerWith(net, 20n * HBAR, creator.num);
  const receiver = sender && otherUser(net, sender.num);
  if (!sender || !receiver) return false;
  const amount = random.bigint(1n, sender.balance / 20n);
  const transfers = [
    { account: sender.num, amount: -amount },
    { account: receiver.num, amount },
  ];
  const memo = maybeMemo(net, 0.5);
  let schedule: Schedule | undefined;
  let scheduledId: Record<string, unknown> = {};
  const created = await net.submit({
    payer: creator.num,
    body: {
      scheduleCreate: {
        scheduledTransactionBody: {
          transactionFee: SCHEDULED_FEE_LIMIT,
          cryptoTransfer: { transfers: { accountAmounts: scheduledTransfer({ transfers }).toPb() } },
        },
        ...(memo ? { memo } : {}),
        adminKey: keyPb(creator.key),
        payerAccountID: accountPb(sender.num),
      },
    },
    price: 'scheduleCreate',
    execute: ({ consensusNs, transactionId }) => {
      const num = ledger.allocateEntity();
      scheduledId = { ...transactionId, scheduled: true };
      schedule = {
        num,
        payer: sender.num,
        creator: creator.num,
        awaiting: sender.num,
        transfers,
        createdAt: consensusNs,
        executed: false,
        scheduledId,
      };
      ledger.schedules.set(num, schedule);
      return { receipt: { scheduleID: schedulePb(num), scheduledTransactionID: scheduledId } };
    },
  });
  if (!schedule) return false;
  if (immediate) await execute(net, schedule, created.consensusNs + 1n);
  else ledger.pendingSchedules.add(schedule.num);
  return true;
}

/** The awaited account signs a pending schedule, which then executes. */
export async function signSchedule(net: Network): Promise<boolean> {
  const { ledger, random } = net;
  const num = ledger.pendingSchedules.pick(random);
  const schedule = num === undefined ? undefined : ledger.schedules.get(num);
  if (!schedule) return false;
  const signer = ledger.account(schedule.awaiting);
  if (signer.deleted || signer.balance < 2n * HBAR) return false;
  ledger.pendingSchedules.delete(schedule.num);
  const signed = await net.submit({
    payer: signer.num,
    body: { scheduleSign: { scheduleID: schedulePb(schedule.num) } },
    price: 'scheduleSign',
    execute: () => ({ receipt: { scheduledTransactionID: schedule.scheduledId } }),
  });
  await execute(net, schedule, signed.consensusNs + 1n);
  return true;
}

async function execute(net: Network, schedule: Schedule, consensusNs: bigint): Promise<void> {
  const payer = net.ledger.account(schedule.payer);
  const transfers = scheduledTransfer(schedule);
  const debit = schedule.transfers.find((t) => t.account === schedule.payer)?.amount ?? 0n;
  const affordable = payer.balance + debit > HBAR;
  schedule.executed = true;
  await net.submit({
    payer: schedule.payer,
    transactionId: schedule.scheduledId,
    consensusNs,
    body: { cryptoTransfer: { transfers: { accountAmounts: transfers.toPb() } } },
    price: 'cryptoTransfer',
    execute: () => ({
      ...(affordable ? { transfers } : { status: INSUFFICIENT_ACCOUNT_BALANCE }),
      record: { scheduleRef: schedulePb(schedule.num) },
    }),
  });
}
