import { expect, it } from 'vitest';
import { TREASURY } from '../ledger/ids.ts';
import { Network } from '../network/network.ts';
import { Random } from '../random.ts';
import { submitChunkedMessage } from './chunked-messages.ts';
import { HBAR } from './pick.ts';

const SUBMITTER = 1001n;
const TOPIC = 1002n;

it('submits a large message as chunks of one transaction id family, each advancing the topic', async () => {
  const net = new Network({ random: new Random('chunks'), nodeCount: 4, tps: 10, startNs: 10_000_000_000n });
  const { ledger } = net;
  ledger.createAccount(SUBMITTER, net.keys.next('ed25519'), {
    memo: '',
    evmAddress: undefined,
    maxAutoAssociations: 0,
  });
  ledger.applyHbar(
    new Map([
      [TREASURY, -100n * HBAR],
      [SUBMITTER, 100n * HBAR],
    ]),
  );
  ledger.topics.set(TOPIC, { num: TOPIC, sequenceNumber: 0n, runningHash: new Uint8Array(48), submitter: SUBMITTER });
  ledger.topicPool.add(TOPIC);

  await expect(submitChunkedMessage(net)).resolves.toBe(true);

  const items = net.drain();
  expect(items.length).toBeGreaterThan(1);
  const total = items.length;
  const first = (items[0]?.body as { transactionID?: unknown } | undefined)?.transactionID;
  expect(first).toBeDefined();
  items.forEach((item, index) => {
    const submit = (item.body as { consensusSubmitMessage: { message: Uint8Array; chunkInfo: unknown } })
      .consensusSubmitMessage;
    expect(submit.chunkInfo).toEqual({ initialTransactionID: first, total, number: index + 1 });
    expect(submit.message.length).toBeLessThanOrEqual(1024);
  });
  expect(ledger.topics.get(TOPIC)?.sequenceNumber).toBe(BigInt(total));
});
