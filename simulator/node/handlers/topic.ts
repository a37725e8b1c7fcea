/**
 * ConsensusService transactions submitted to a node: topics created with keys and a memo, messages under the
 * topic's submit key (the running hash as mix/consensus.ts computes it), updates and deletions under its admin key;
 * HIP-991 custom fees and fee-exempt keys (topic-fees.ts).
 */
import { topicPb } from '../../ledger/ids.ts';
import type { LedgerKey, Topic } from '../../ledger/ledger.ts';
import { messageSubmission } from '../../mix/consensus.ts';
import { nsOf } from '../entity-ids.ts';
import {
  bigOf,
  checkMemo,
  DEFAULT_AUTO_RENEW_SECONDS,
  ensure,
  type Pb,
  type TxHandler,
  textOf,
  wrapped,
} from '../handling.ts';
import { keyFromPb } from '../signatures.ts';
import { checkFeeListShape, feeList, readTopicFees } from './custom-fee-schedule.ts';
import { liveAccount, liveTopic } from './lookups.ts';
import { validKey } from './token-keys.ts';
import { checkFeeLimits, checkTopicFeeShape, readExemptKeys, topicCharges, topicFeeSettings } from './topic-fees.ts';

const keyList = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

const MAX_MESSAGE_BYTES = 1024;

export const topicCreate: TxHandler = {
  price: (data) => ({ kind: feeList(data.custom_fees).length > 0 ? 'topicCreateWithCustomFees' : 'topicCreate' }),
  pure: (data) => {
    checkMemo(textOf(data.memo));
    if (data.adminKey) ensure(keyFromPb(data.adminKey), 'BAD_ENCODING');
    if (data.submitKey) ensure(keyFromPb(data.submitKey), 'BAD_ENCODING');
    checkTopicFeeShape(data);
  },
  handle: ({ net, data }) => {
    const { ledger } = net;
    const adminKey = data.adminKey ? keyFromPb(data.adminKey) : undefined;
    const submitKey = data.submitKey ? keyFromPb(data.submitKey) : undefined;
    const autoRenew = data.autoRenewAccount ? liveAccount(ledger, data.autoRenewAccount) : undefined;
    const fees = topicFeeSettings(ledger, data);
    const requiredKeys = [adminKey, autoRenew?.key].filter((k): k is LedgerKey => k !== undefined);
    return {
      requiredKeys,
      execute: ({ consensusNs }) => {
        const num = ledger.allocateEntity();
        const seconds = data.autoRenewPeriod ? bigOf((data.autoRenewPeriod as Pb).seconds) : DEFAULT_AUTO_RENEW_SECONDS;
        ledger.topics.set(num, {
          num,
          sequenceNumber: 0n,
          runningHash: new Uint8Array(48),
          submitter: undefined,
          settings: {
            memo: textOf(data.memo),
            ...(adminKey ? { adminKey } : {}),
            ...(submitKey ? { submitKey } : {}),
            ...(autoRenew ? { autoRenewAccount: autoRenew.num } : {}),
            autoRenewSeconds: seconds,
            expirationNs: consensusNs + seconds * 1_000_000_000n,
            ...fees,
          },
        });
        return { receipt: { topicID: topicPb(num) } };
      },
    };
  },
};

function messageOf(data: Pb): Uint8Array {
  return data.message instanceof Uint8Array ? new Uint8Array(data.message) : new Uint8Array();
}

export const submitMessage: TxHandler = {
  price: (data) => ({ kind: 'submitMessage', bytes: messageOf(data).length }),
  pure: (data, body) => {
    checkFeeLimits(body);
    const message = messageOf(data);
    ensure(message.length > 0, 'INVALID_TOPIC_MESSAGE');
    ensure(message.length <= MAX_MESSAGE_BYTES, 'MESSAGE_SIZE_TOO_LARGE');
    const chunk = data.chunkInfo as Pb | undefined;
    if (chunk) {
      const total = Number(chunk.total ?? 0);
      const number = Number(chunk.number ?? 0);
      ensure(number >= 1 && number <= total, 'INVALID_CHUNK_NUMBER');
    }
  },
  handle: ({ net, data, payer, body, fee, signatures }) => {
    const topic = liveTopic(net.ledger, data.topicID);
    const chunk = data.chunkInfo as Pb | undefined;
    if (chunk && Number(chunk.number) > 1) {
      // Later chunks carry the first chunk's transaction id, whose payer must be this one.
      const first = (chunk.initialTransactionID ?? {}) as Pb;
      const firstPayer = bigOf((first.accountID as Pb | undefined)?.accountNum);
      const ownPayer = bigOf(((body.transactionID as Pb).accountID as Pb | undefined)?.accountNum);
      ensure(firstPayer === ownPayer, 'INVALID_CHUNK_TRANSACTION_ID');
    }
    const submitKey = topic.settings?.submitKey;
    const submission = messageSubmission(topic, payer, messageOf(data), chunk);
    const charges = topicCharges(net.ledger, topic.settings, payer, fee, signatures, body);
    return {
      requiredKeys: submitKey ? [submitKey] : [],
      execute: async (ctx) => {
        const outcome = await submission.execute(ctx);
        if (charges.assessed.length === 0) return outcome;
        for (const [token, account, amount] of charges.tokens.fungibleDeltas())
          net.ledger.addTokenBalance(account, token, amount);
        return {
          ...outcome,
          transfers: charges.hbar,
          tokens: charges.tokens,
          record: { ...outcome.record, assessed_custom_fees: charges.assessed },
        };
      },
    };
  },
};

function adminKeyOf(topic: Topic): LedgerKey {
  const key = topic.settings?.adminKey;
  ensure(key, 'UNAUTHORIZED');
  return key;
}

export const topicUpdate: TxHandler = {
  price: () => ({ kind: 'topicUpdate' }),
  pure: (data) => {
    const memo = wrapped<string>(data.memo);
    if (memo !== undefined) checkMemo(memo);
    if (data.fee_schedule_key) validKey(data.fee_schedule_key, 'INVALID_CUSTOM_FEE_SCHEDULE_KEY');
    if (data.fee_exempt_key_list) readExemptKeys(keyList((data.fee_exempt_key_list as Pb).keys));
    if (data.custom_fees) checkFeeListShape(feeList((data.custom_fees as Pb).fees));
  },
  handle: ({ net, data }) => {
    const topic = liveTopic(net.ledger, data.topicID);
    const settings = topic.settings;
    ensure(settings, 'UNAUTHORIZED');
    // Expiry alone needs no signature; the fee schedule key alone changes the custom fees; the rest is the admin's.
    const ownFields = ['topicID', 'expirationTime', 'custom_fees', 'fee_schedule_key'];
    const adminChange = Object.keys(data).some((field) => !ownFields.includes(field));
    const newAdmin = data.adminKey ? keyFromPb(data.adminKey) : undefined;
    const requiredKeys = adminChange ? [adminKeyOf(topic), ...(newAdmin ? [newAdmin] : [])] : [];
    if (data.fee_schedule_key) ensure(settings.feeScheduleKey, 'FEE_SCHEDULE_KEY_CANNOT_BE_UPDATED');
    if (data.custom_fees) ensure(settings.feeScheduleKey, 'FEE_SCHEDULE_KEY_NOT_SET');
    if ((data.fee_schedule_key || data.custom_fees) && settings.feeScheduleKey)
      requiredKeys.push(settings.feeScheduleKey);
    const fees = data.custom_fees ? readTopicFees(net.ledger, feeList((data.custom_fees as Pb).fees)) : undefined;
    const exempt = data.fee_exempt_key_list
      ? readExemptKeys(keyList((data.fee_exempt_key_list as Pb).keys))
      : undefined;
    return {
      requiredKeys,
      execute: () => {
        if (data.fee_schedule_key) settings.feeScheduleKey = validKey(data.fee_schedule_key, 'BAD_ENCODING');
        if (fees) settings.customFees = fees;
        if (exempt) settings.feeExemptKeys = exempt;
        const memo = wrapped<string>(data.memo);
        if (memo !== undefined) settings.memo = memo;
        if (newAdmin) settings.adminKey = newAdmin;
        if (data.submitKey) {
          const submitKey = keyFromPb(data.submitKey);
          if (submitKey && !(submitKey.kind === 'list' && submitKey.keys.length === 0)) settings.submitKey = submitKey;
          else delete settings.submitKey;
        }
        if (data.expirationTime) settings.expirationNs = nsOf(data.expirationTime);
        if (data.autoRenewPeriod) settings.autoRenewSeconds = bigOf((data.autoRenewPeriod as Pb).seconds);
        return {};
      },
    };
  },
};

export const topicDelete: TxHandler = {
  price: () => ({ kind: 'topicDelete' }),
  handle: ({ net, data }) => {
    const topic = liveTopic(net.ledger, data.topicID);
    const key = adminKeyOf(topic);
    return {
      requiredKeys: [key],
      execute: () => {
        if (topic.settings) topic.settings.deleted = true;
        net.ledger.topicPool.delete(topic.num);
        return {};
      },
    };
  },
};
