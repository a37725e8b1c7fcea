import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { explainQueries, type PlanNode, planNodes } from '../../test/harness/explain.ts';
import { seedTopicMessages } from '../../test/harness/factories-topics.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { type TopicMessagesQuery, topicMessages } from './topics-messages.ts';

const TOPIC = 7n;
const MESSAGES = 1_000_000;
const FIRST = 1_700_000_000_000_000_000n;

let db: TestDatabase;

beforeAll(async () => {
  db = await createTestDatabase();
  await seedTopicMessages(db.sql, TOPIC, MESSAGES, FIRST);
  await seedTopicMessages(db.sql, 8n, 1000, FIRST - 10_000n);
  await db.sql.query('analyze topic_message');
}, 300_000);

afterAll(async () => {
  await db?.drop();
});

const base: TopicMessagesQuery = { topicId: TOPIC, sequenceNumbers: [], timestamps: [], order: 'asc', limit: 25 };

async function planOf(query: TopicMessagesQuery): Promise<PlanNode> {
  const [plan] = await explainQueries(db.sql, (database) => topicMessages(database, query));
  if (!plan) throw new Error('no plan');
  return plan;
}

describe('topicMessages on a topic with 1,000,000 messages', () => {
  it.each<[string, Partial<TopicMessagesQuery>]>([
    ['the first page', {}],
    ['the last page (descending)', { order: 'desc' }],
    ['a page after a timestamp', { timestamps: [{ operator: 'gt', value: FIRST + 500_000n }] }],
    [
      'a page in a sequence number range',
      {
        order: 'desc',
        sequenceNumbers: [
          { operator: 'gte', value: 100_000n },
          { operator: 'lt', value: 900_000n },
        ],
      },
    ],
  ])('reads %s through the (topic_id, consensus_timestamp) index, stopping at the limit', async (_name, change) => {
    const plan = await planOf({ ...base, ...change });
    const nodes = planNodes(plan);
    expect(plan['Node Type']).toBe('Limit');
    // (append_only_history, one row at most, is read whole for the committed end: docs/adr/0045)
    const seqScans = nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']);
    expect(seqScans.filter((table) => table !== 'append_only_history')).toEqual([]);
    expect(nodes.map((node) => node['Node Type'])).not.toContain('Sort');
    const scan = nodes.find((node) => node['Relation Name'] === 'topic_message');
    expect(scan?.['Index Name']).toBe('topic_message__topic_id_timestamp');
    expect(scan?.['Actual Rows']).toBeLessThanOrEqual(25);
  });
});
