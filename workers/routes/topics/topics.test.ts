import { describe, expect, it } from 'vitest';
import { insertRow, insertTransaction, ns } from '../../../test/harness/factories.ts';
import { insertTopicMessage } from '../../../test/harness/factories-topics.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const T0 = ns('1700000000.000000000');
const TOPIC = 7n;
// HAPI TransactionID: valid start 1234567890.000000005, account 0.0.3, scheduled, nonce 1.
const INITIAL_TRANSACTION_ID = Buffer.from('0a0808d285d8cc0410051202180318012001', 'hex');
const ED25519 = Buffer.from(`1220${'ab'.repeat(32)}`, 'hex');
// A KeyList with the ED25519 key above and an ECDSA key.
const KEY_LIST = Buffer.concat([
  Buffer.from('0a22', 'hex'),
  ED25519,
  Buffer.from('0a23', 'hex'),
  Buffer.from(`3a21${'02'.repeat(33)}`, 'hex'),
]);

const sequenceNumbers = (body: { messages: { sequence_number: number }[] }) =>
  body.messages.map((m) => m.sequence_number);

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    for (let seq = 1; seq <= 5; seq++) {
      await insertTopicMessage(db.sql, {
        consensus_timestamp: T0 + BigInt(seq),
        topic_id: TOPIC,
        sequence_number: seq,
      });
    }
    await insertTopicMessage(db.sql, {
      consensus_timestamp: T0 + 6n,
      topic_id: TOPIC,
      sequence_number: 6,
      message: Buffer.from('héllo'),
      chunk_num: 1,
      chunk_total: 2,
      initial_transaction_id: INITIAL_TRANSACTION_ID,
    });
    await insertTopicMessage(db.sql, {
      consensus_timestamp: T0 + 7n,
      topic_id: TOPIC,
      sequence_number: 7,
      chunk_num: 2,
      chunk_total: 2,
      payer_account_id: 10,
      valid_start_timestamp: T0,
      running_hash_version: null,
    });
    await insertTopicMessage(db.sql, { consensus_timestamp: T0 + 8n, topic_id: 8n, sequence_number: 1 });
    await insertRow(db.sql, 'topic_message_lookup', {
      partition: 'topic_message_p1',
      sequence_number_range: '[1,8)',
      timestamp_range: `[${T0 + 1n},${T0 + 8n})`,
      topic_id: TOPIC,
    });
    await insertTransaction(db.sql, { consensus_timestamp: T0 + 3n, payer_account_id: 3n, type: 27, entity_id: TOPIC });
    await insertTransaction(db.sql, { consensus_timestamp: T0 + 4n, payer_account_id: 3n, type: 27, result: 10 });

    await insertRow(db.sql, 'entity', {
      id: TOPIC,
      num: TOPIC,
      realm: 0,
      shard: 0,
      type: 'TOPIC',
      auto_renew_account_id: 98,
      auto_renew_period: 7776000,
      created_timestamp: T0,
      deleted: false,
      memo: 'topic memo',
      timestamp_range: `[${T0},)`,
    });
    await insertRow(db.sql, 'topic', {
      id: TOPIC,
      admin_key: ED25519,
      created_timestamp: T0,
      fee_exempt_key_list: KEY_LIST,
      submit_key: Buffer.from('3200', 'hex'),
      timestamp_range: `[${T0 + 1n},)`,
    });
    await insertRow(db.sql, 'custom_fee', {
      entity_id: TOPIC,
      fixed_fees: JSON.stringify([
        { amount: 100, collector_account_id: 9, denominating_token_id: 1001, all_collectors_are_exempt: false },
        { amount: 5, collector_account_id: 10 },
      ]),
      timestamp_range: `[${T0 + 2n},)`,
    });
    await insertRow(db.sql, 'topic', { id: 8, timestamp_range: `[${T0},)` });
  },
});

describe('GET /api/v1/topics/{topicId}/messages', () => {
  it('pages through the messages in consensus order', async () => {
    const res = await worker.get('/api/v1/topics/0.0.7/messages?limit=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=1');
    expect(res.body.messages[0]).toEqual({
      chunk_info: null,
      consensus_timestamp: '1700000000.000000001',
      message: Buffer.from('message').toString('base64'),
      payer_account_id: '0.0.3',
      running_hash: Buffer.from('running_hash').toString('base64'),
      running_hash_version: 2,
      sequence_number: 1,
      topic_id: '0.0.7',
    });
    expect(res.body.links.next).toBe('/api/v1/topics/0.0.7/messages?limit=2&timestamp=gt:1700000000.000000002');
    expect(res.headers.get('link')).toBe(`<${res.body.links.next}>; rel="next"`);
    const page2 = await worker.get(res.body.links.next);
    expect(sequenceNumbers(page2.body)).toEqual([3, 4]);
  });

  it('filters by sequence number and timestamp in descending order', async () => {
    const res = await worker.get(
      '/api/v1/topics/7/messages?sequencenumber=gte:2&timestamp=lt:1700000000.000000005&order=desc',
    );
    expect(sequenceNumbers(res.body)).toEqual([4, 3, 2]);
    expect(res.body.links.next).toBeNull();
  });

  it('decodes chunk info from the stored transaction id, or from the payer and valid start', async () => {
    const res = await worker.get('/api/v1/topics/7/messages?sequencenumber=gt:5&encoding=UTF-8');
    const [first, second] = res.body.messages;
    expect(first.message).toBe('héllo');
    expect(first.chunk_info).toEqual({
      initial_transaction_id: {
        account_id: '0.0.3',
        nonce: 1,
        scheduled: true,
        transaction_valid_start: '1234567890.000000005',
      },
      number: 1,
      total: 2,
    });
    expect(second.chunk_info.initial_transaction_id).toEqual({
      account_id: '0.0.10',
      nonce: null,
      scheduled: null,
      transaction_valid_start: '1700000000.000000000',
    });
    expect(second.running_hash_version).toBe(3);
  });

  it('gives the same pages through the topic message lookup table', async () => {
    await worker.setState({ config: { query: { topicMessageLookup: true } } });
    try {
      const asc = await worker.get('/api/v1/topics/7/messages?sequencenumber=gt:1&limit=3');
      expect(sequenceNumbers(asc.body)).toEqual([2, 3, 4]);
      const desc = await worker.get('/api/v1/topics/7/messages?order=desc&limit=2');
      expect(sequenceNumbers(desc.body)).toEqual([7, 6]);
      const empty = await worker.get('/api/v1/topics/7/messages?sequencenumber=3&sequencenumber=gt:3');
      expect(empty.body).toEqual({ messages: [], links: { next: null } });
      const ne = await worker.get('/api/v1/topics/7/messages?sequencenumber=ne:3');
      expect(ne.status).toBe(400);
      expect(ne.body._status.messages).toEqual([
        { message: 'Not equal (ne) operator is not supported for sequencenumber' },
      ]);
      expect((await worker.get('/api/v1/topics/7/messages/5')).body.sequence_number).toBe(5);
    } finally {
      await worker.setState({});
    }
  });

  it('validates the topic id before the query', async () => {
    const res = await worker.get('/api/v1/topics/0x0000000000000000000000000000000000000007/messages?limit=x');
    expect(res.status).toBe(400);
    expect(res.body._status.messages).toEqual([{ message: 'Invalid parameter: topic.id' }]);
  });

  it('answers 400 for a repeated encoding, where the reference answers 500', async () => {
    const res = await worker.get('/api/v1/topics/7/messages?encoding=utf-8&encoding=base64');
    expect(res.status).toBe(400);
    expect(res.body._status.messages).toEqual([{ message: 'Invalid parameter: encoding' }]);
  });
});

describe('GET /api/v1/topics/{topicId}/messages/{sequenceNumber}', () => {
  it('returns one message, cached for ten minutes', async () => {
    const res = await worker.get('/api/v1/topics/0.0.7/messages/2');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(res.body.consensus_timestamp).toBe('1700000000.000000002');
  });

  it('reports both bad path parameters, and 404 for a missing message', async () => {
    const bad = await worker.get('/api/v1/topics/x/messages/0');
    expect(bad.body._status.messages).toEqual([
      { message: 'Invalid parameter: topic.id' },
      { message: 'Invalid parameter: sequencenumber' },
    ]);
    expect((await worker.get('/api/v1/topics/7/messages/99')).status).toBe(404);
  });
});

describe('GET /api/v1/topics/messages/{consensusTimestamp}', () => {
  it('finds the message of a successful submit transaction', async () => {
    const res = await worker.get('/api/v1/topics/messages/1700000000.000000003');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(res.body.sequence_number).toBe(3);
  });

  it('answers 404 for a failed transaction and 400 for a bad timestamp', async () => {
    expect((await worker.get('/api/v1/topics/messages/1700000000.000000004')).status).toBe(404);
    const bad = await worker.get('/api/v1/topics/messages/1.2.3');
    expect(bad.body._status.messages).toEqual([{ message: 'Invalid parameter: consensus_timestamp' }]);
  });
});

describe('GET /api/v1/topics/{topicId}', () => {
  it('returns the topic with its entity fields and custom fees', async () => {
    const res = await worker.get('/api/v1/topics/0.7');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=5');
    expect(res.body).toEqual({
      admin_key: { _type: 'ED25519', key: 'ab'.repeat(32) },
      auto_renew_account: '0.0.98',
      auto_renew_period: 7776000,
      created_timestamp: '1700000000.000000000',
      custom_fees: {
        created_timestamp: '1700000000.000000002',
        fixed_fees: [
          { amount: 100, collector_account_id: '0.0.9', denominating_token_id: '0.0.1001' },
          { amount: 5, collector_account_id: '0.0.10', denominating_token_id: null },
        ],
      },
      deleted: false,
      fee_exempt_key_list: [
        { _type: 'ED25519', key: 'ab'.repeat(32) },
        { _type: 'ECDSA_SECP256K1', key: '02'.repeat(33) },
      ],
      fee_schedule_key: null,
      memo: 'topic memo',
      submit_key: null,
      timestamp: { from: '1700000000.000000000', to: null },
      topic_id: '0.0.7',
    });
  });

  it('answers like the reference Java process when a part is missing or the id does not convert', async () => {
    const missingTopic = await worker.get('/api/v1/topics/9');
    expect(missingTopic.status).toBe(404);
    expect(missingTopic.body).toEqual({ _status: { messages: [{ message: 'Not Found', detail: 'Topic not found' }] } });
    const missingEntity = await worker.get('/api/v1/topics/0.0.8');
    expect(missingEntity.body._status.messages).toEqual([{ message: 'Not Found', detail: 'Entity not found' }]);
    const bad = await worker.get('/api/v1/topics/0.0.274877906944');
    expect(bad.status).toBe(400);
    expect(bad.body._status.messages).toEqual([{ message: 'Bad Request', detail: "Failed to convert 'id'" }]);
  });
});
