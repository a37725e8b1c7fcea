/**
 * ConsensusService transactions submitted to a node: topics created with keys and a memo, messages under the
 * topic's submit key (the running hash as mix/consensus.ts computes it), updates and deletions under its admin key.
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
import { liveAccount, liveTopic } from './lookups.ts';

const MAX_MESSAGE_BYTES = 1024;

export const topicCreate: TxHandler = {
  price: () => ({ kind: 'topicCreate' }),
  pure: (data) => {
    checkMemo(textOf(data.memo));
    if (data.adminKey) ensure(keyFromPb(data.adminKey), 'BAD_ENCODING');
    if (data.submitKey) ensure(keyFromPb(data.submitKey), 'BAD_ENCODING');
  },
  handle: ({ net, data }) => {
    const { ledger } = net;
    const adminKey = data.adminKey ? keyFromPb(data.adminKey) : undefined;
    const submitKey = data.submitKey ? keyFromPb(data.submitKey) : undefined;
    const autoRenew = data.autoRenewAccount ? liveAccount(ledger, data.autoRenewAccount) : undefined;
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
  pure: (data) => {
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
  handle: ({ net, data, payer, body }) => {
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
    return { requiredKeys: submitKey ? [submitKey] : [], execute: submission.execute };
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
  },
  handle: ({ net, data }) => {
    const topic = liveTopic(net.ledger, data.topicID);
    const settings = topic.settings;
    ensure(settings, 'UNAUTHORIZED');
    const onlyExpiry = Object.keys(data).every((field) => field === 'topicID' || field === 'expirationTime');
    const newAdmin = data.adminKey ? keyFromPb(data.adminKey) : undefined;
    const requiredKeys = onlyExpiry ? [] : [adminKeyOf(topic), ...(newAdmin ? [newAdmin] : [])];
    return {
      requiredKeys,
      execute: () => {
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
