/**
 * Consensus service: topics and their messages. Each message advances the topic's sequence number and its
 * running hash (version 3: SHA-384 over the previous hash, the version, payer and topic ids, the consensus time,
 * the sequence number and SHA-384 of the message, big-endian, as the network defines it; mirrors store the hash
 * and do not recompute it).
 */
import { sha384 } from '../hash.ts';
import { accountPb, i64, topicPb } from '../ledger/ids.ts';
import type { Account, Topic } from '../ledger/ledger.ts';
import { keyPb } from '../network/keys.ts';
import type { Network, Submission } from '../network/network.ts';
import { HBAR, maybeMemo, payerWith } from './pick.ts';

const RUNNING_HASH_VERSION = 3n;

export async function createTopic(net: Network): Promise<boolean> {
  const owner = payerWith(net, 20n * HBAR);
  if (!owner?.key) return false;
  const memo = maybeMemo(net, 0.7);
  const withSubmitKey = net.random.chance(0.3);
  await net.submit({
    payer: owner.num,
    body: {
      consensusCreateTopic: {
        ...(memo ? { memo } : {}),
        adminKey: keyPb(owner.key),
        ...(withSubmitKey ? { submitKey: keyPb(owner.key) } : {}),
        autoRenewPeriod: { seconds: '7776000' },
        autoRenewAccount: accountPb(owner.num),
      },
    },
    price: 'topicCreate',
    execute: () => {
      const num = net.ledger.allocateEntity();
      net.ledger.topics.set(num, {
        num,
        sequenceNumber: 0n,
        runningHash: new Uint8Array(48),
        submitter: withSubmitKey ? owner.num : undefined,
      });
      net.ledger.topicPool.add(num);
      return { receipt: { topicID: topicPb(num) } };
    },
  });
  return true;
}

/** A message to a random topic: JSON events or plain text, 30 bytes to 1 KB; restricted topics only by their owner. */
export async function submitMessage(net: Network): Promise<boolean> {
  const { random } = net;
  const picked = topicAndSubmitter(net, HBAR);
  if (!picked) return false;
  const { topic, payer } = picked;
  const message = new TextEncoder().encode(
    random.chance(0.6)
      ? JSON.stringify({ event: random.words(1), id: random.int(1, 1e9), data: random.words(random.int(2, 60)) })
      : random.words(random.int(3, 150)),
  );
  await net.submit({ payer: payer.num, ...messageSubmission(topic, payer.num, message) });
  return true;
}

/**
 * A random topic and who submits to it, with at least `balance`: a restricted topic's owner, else a random user;
 * undefined when there is no topic or that payer cannot pay.
 */
export function topicAndSubmitter(net: Network, balance: bigint): { topic: Topic; payer: Account } | undefined {
  const { ledger, random } = net;
  const num = ledger.topicPool.pick(random);
  const topic = num === undefined ? undefined : ledger.topics.get(num);
  if (!topic) return undefined;
  const payer =
    topic.submitter !== undefined ? ledger.account(topic.submitter) : ledger.account(ledger.users.pick(random) ?? 0n);
  if (payer.deleted || payer.balance < balance) return undefined;
  return { topic, payer };
}

/**
 * The part of a ConsensusSubmitMessage every message shares: its body (with the chunk's info for a chunk of a larger
 * message), its price, and its execution, which advances the topic's sequence number and running hash.
 */
export function messageSubmission(
  topic: Topic,
  payer: bigint,
  message: Uint8Array,
  chunkInfo?: Record<string, unknown>,
): Pick<Submission, 'body' | 'price' | 'payloadBytes' | 'execute'> {
  return {
    body: { consensusSubmitMessage: { topicID: topicPb(topic.num), message, ...(chunkInfo ? { chunkInfo } : {}) } },
    price: 'submitMessage',
    payloadBytes: message.length,
    execute: ({ consensusNs }) => {
      advanceTopic(topic, payer, consensusNs, message);
      return {
        receipt: {
          topicSequenceNumber: i64(topic.sequenceNumber),
          topicRunningHash: topic.runningHash,
          topicRunningHashVersion: i64(RUNNING_HASH_VERSION),
        },
      };
    },
  };
}

function advanceTopic(topic: Topic, payer: bigint, consensusNs: bigint, message: Uint8Array): void {
  topic.sequenceNumber += 1n;
  const header = new DataView(new ArrayBuffer(8 * 8 + 4 + 8));
  const longs = [RUNNING_HASH_VERSION, 0n, 0n, payer, 0n, 0n, topic.num, consensusNs / 1_000_000_000n];
  for (const [i, value] of longs.entries()) header.setBigInt64(i * 8, value);
  header.setInt32(64, Number(consensusNs % 1_000_000_000n));
  header.setBigInt64(68, topic.sequenceNumber);
  topic.runningHash = sha384(topic.runningHash, new Uint8Array(header.buffer), sha384(message));
}
