/**
 * A topic message larger than one transaction carries, submitted as the SDK's TopicMessageSubmitTransaction does:
 * chunks of 1024 bytes, each its own ConsensusSubmitMessage whose chunkInfo names the first chunk's transaction id,
 * the chunk count and its number; the chunks' ids share the payer and have valid starts one nanosecond apart.
 */
import { accountPb, timestampPb } from '../ledger/ids.ts';
import type { Network } from '../network/network.ts';
import { messageSubmission, topicAndSubmitter } from './consensus.ts';
import { HBAR } from './pick.ts';

/** The SDK's default chunk size. */
const CHUNK_BYTES = 1024;

export async function submitChunkedMessage(net: Network): Promise<boolean> {
  const { random } = net;
  const picked = topicAndSubmitter(net, 5n * HBAR);
  if (!picked) return false;
  const { topic, payer } = picked;
  const message = new TextEncoder().encode(random.words(random.int(250, 600)));
  const total = Math.ceil(message.length / CHUNK_BYTES);
  const validStart = net.now - BigInt(random.int(1_000_000_000, 8_000_000_000));
  const transactionId = (chunk: number) => ({
    transactionValidStart: timestampPb(validStart + BigInt(chunk)),
    accountID: accountPb(payer.num),
  });
  for (let number = 1; number <= total; number++) {
    const chunk = message.subarray((number - 1) * CHUNK_BYTES, number * CHUNK_BYTES);
    await net.submit({
      payer: payer.num,
      transactionId: transactionId(number - 1),
      signed: true,
      ...messageSubmission(topic, payer.num, chunk, { initialTransactionID: transactionId(0), total, number }),
    });
  }
  return true;
}
