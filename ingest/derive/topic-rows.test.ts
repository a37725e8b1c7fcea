import { describe, expect, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { ingestItems, rowsOf } from '../testing/ingest-records.ts';

const TOPIC = 3000;
const KEY = { ed25519: Buffer.alloc(32, 4) };

const db = useTestDatabase();

describe('the rows of a topic', () => {
  it("keep its keys in topic only, its exempt key list as bytes (empty without keys) and its fees' every field", async () => {
    await ingestItems(db.sql, [
      {
        at: 100,
        body: {
          consensusCreateTopic: {
            adminKey: KEY,
            submitKey: KEY,
            custom_fees: [{ fixed_fee: { amount: 5 }, fee_collector_account_id: { accountNum: 98 } }],
          },
        },
        receipt: { topicID: { topicNum: TOPIC } },
      },
      { at: 101, body: { consensusUpdateTopic: { topicID: { topicNum: TOPIC }, adminKey: KEY } } },
    ]);
    expect(await rowsOf(db.sql, `select key, public_key from entity where id = ${TOPIC}`)).toEqual([
      { key: null, public_key: null },
    ]);
    expect(
      await rowsOf(
        db.sql,
        `select encode(fee_exempt_key_list, 'hex') as list, admin_key is not null as admin from topic`,
      ),
    ).toEqual([{ list: '', admin: true }]);
    expect(await rowsOf(db.sql, `select fixed_fees from custom_fee where entity_id = ${TOPIC}`)).toEqual([
      {
        fixed_fees: [
          { all_collectors_are_exempt: false, amount: 5, collector_account_id: 98, denominating_token_id: null },
        ],
      },
    ]);
  });
});
