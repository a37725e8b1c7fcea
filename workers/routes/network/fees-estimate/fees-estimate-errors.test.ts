import { proto } from '@hiero-ledger/proto';
import { describe, expect, it } from 'vitest';
import {
  badRequest,
  bareTransferBytes,
  ed25519SigPair,
  genesisScheduleJson,
  registerFeeSuite,
  transactionBytes,
} from '../../../../test/harness/factories-fees.ts';

const genesis = genesisScheduleJson();
const { post } = registerFeeSuite(genesis);

describe('POST /api/v1/network/fees refusals', () => {
  it('answers 400 Unknown transaction type for a type without a fee calculator', async () => {
    const freeze = transactionBytes({ freeze: { freezeType: 1 } });
    expect(await post(freeze)).toEqual({ status: 400, body: badRequest('Unknown transaction type') });
  });

  it('answers 415 for a body sent without a content type', async () => {
    expect(await post(bareTransferBytes(), { contentType: '' })).toEqual({
      status: 415,
      body: {
        _status: {
          messages: [
            { message: 'Unsupported Media Type', detail: "Content-Type 'application/octet-stream' is not supported" },
          ],
        },
      },
    });
  });
});

describe('POST /api/v1/network/fees errors (vector 8)', () => {
  it('answers each bad request with the reference status and text', async () => {
    expect(await post(new Uint8Array())).toEqual({ status: 400, body: badRequest('Failed to read request') });
    expect(await post(bareTransferBytes(), { query: '?mode=invalid' })).toEqual({
      status: 400,
      body: badRequest("Failed to convert 'mode'"),
    });
    const random = Uint8Array.from({ length: 100 }, (_, i) => (i * 151 + 7) % 256);
    expect(await post(proto.Transaction.encode({ signedTransactionBytes: random }).finish())).toEqual({
      status: 400,
      body: badRequest('Unable to parse transaction'),
    });
    expect(await post(proto.Transaction.encode({ sigMap: { sigPair: [ed25519SigPair(1)] } }).finish())).toEqual({
      status: 400,
      body: badRequest('Transaction must contain body bytes or signed transaction bytes'),
    });
    const memoOnly = proto.Transaction.encode({
      signedTransactionBytes: proto.SignedTransaction.encode({
        bodyBytes: proto.TransactionBody.encode({ memo: 'only a memo' }).finish(),
      }).finish(),
    }).finish();
    expect(await post(memoOnly)).toEqual({ status: 400, body: badRequest('Unknown transaction type') });
    expect(await post(bareTransferBytes(), { contentType: 'application/json' })).toEqual({
      status: 415,
      body: {
        _status: {
          messages: [{ message: 'Unsupported Media Type', detail: "Content-Type 'application/json' is not supported" }],
        },
      },
    });
    expect(await post(bareTransferBytes(), { query: '?high_volume_throttle=-1' })).toEqual({
      status: 400,
      body: badRequest('highVolumeThrottle must be greater than or equal to 0'),
    });
    expect(await post(bareTransferBytes(), { query: '?high_volume_throttle=10001' })).toEqual({
      status: 400,
      body: badRequest('highVolumeThrottle must be less than or equal to 10000'),
    });
    expect(await post(bareTransferBytes(), { query: '?high_volume_throttle=lots' })).toEqual({
      status: 400,
      body: badRequest("Failed to convert 'high_volume_throttle'"),
    });
  });

  it('answers 413 for a body over the 133,120-byte cap', async () => {
    const huge = new Uint8Array(133_121);
    expect((await post(huge)).status).toBe(413);
  });

  it('answers 1,000 random and truncated bodies with 400, 413 or 415 only', async () => {
    let seed = 0x2545f491;
    const next = () => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return seed >>> 0;
    };
    const valid = transactionBytes({
      consensusSubmitMessage: { topicID: { topicNum: 1234 }, message: new Uint8Array(300).fill(7) },
    });
    const statuses = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      let body: Uint8Array;
      if (i % 2 === 0) body = Uint8Array.from({ length: next() % 400 }, () => next() & 0xff);
      else body = valid.subarray(0, next() % valid.length);
      const contentType = i % 97 === 0 ? 'text/plain' : 'application/x-protobuf';
      statuses.add((await post(i % 199 === 0 ? new Uint8Array(140_000) : body, { contentType })).status);
    }
    expect([...statuses].every((status) => status === 400 || status === 413 || status === 415)).toBe(true);
    expect(statuses.has(400)).toBe(true);
  });
});
