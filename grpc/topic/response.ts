/**
 * A topic message as the reference's ConsensusTopicResponse: a missing running hash version is 3 (block streams
 * carry none); a chunk's initial transaction id is the stored TransactionID, else the payer and valid start.
 */
import { decodeEntityId } from '../../ingest/decode/ids.ts';
import { mirrorTypes } from '../../proto/mirror.ts';
import { withoutDefaults } from '../proto3-defaults.ts';
import type { TopicMessage } from './messages-query.ts';

const DEFAULT_RUNNING_HASH_VERSION = 3;

export const timestampOf = (ns: bigint) =>
  withoutDefaults({ seconds: String(ns / 1_000_000_000n), nanos: Number(ns % 1_000_000_000n) });

export const accountIdOf = (id: bigint) => {
  const { shard, realm, num } = decodeEntityId(id);
  return withoutDefaults({ shardNum: String(shard), realmNum: String(realm), accountNum: String(num) });
};

/** The stored TransactionID bytes, decoded; undefined when they do not parse (the reference logs and goes on). */
function transactionIdOf(bytes: Uint8Array, log: (fields: Record<string, unknown>) => void, message: TopicMessage) {
  try {
    return mirrorTypes().TransactionID.decode(bytes);
  } catch {
    log({
      msg: 'failed to parse TransactionID',
      level: 'error',
      topic: String(message.topicId),
      sequenceNumber: String(message.sequenceNumber),
    });
    return undefined;
  }
}

export function toTopicResponse(message: TopicMessage, log: (fields: Record<string, unknown>) => void) {
  const response: Record<string, unknown> = withoutDefaults({
    consensusTimestamp: timestampOf(message.consensusTimestamp),
    message: message.message,
    runningHash: message.runningHash,
    sequenceNumber: String(message.sequenceNumber),
    runningHashVersion: message.runningHashVersion ?? DEFAULT_RUNNING_HASH_VERSION,
  });
  if (message.chunkNum !== null) {
    const chunkInfo: Record<string, unknown> = withoutDefaults({
      number: message.chunkNum,
      total: message.chunkTotal ?? 0,
    });
    const initial = message.initialTransactionId && transactionIdOf(message.initialTransactionId, log, message);
    if (initial) {
      chunkInfo.initialTransactionID = initial;
    } else if (message.payerAccountId !== null && message.validStartTimestamp !== null) {
      chunkInfo.initialTransactionID = {
        accountID: accountIdOf(message.payerAccountId),
        transactionValidStart: timestampOf(message.validStartTimestamp),
      };
    }
    response.chunkInfo = chunkInfo;
  }
  return response;
}
