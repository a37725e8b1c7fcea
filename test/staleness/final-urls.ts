/**
 * The URLs the staleness test asks while the ledger grows, by route family: for each family, answers its rule
 * marks final (a block, a closed page of history, a settled transaction, a file as of a past time, an id of another
 * type), with bounds right at the newest committed record file where they are sharpest, and answers it must not mark
 * final (the head of a list, a bound past the newest file).
 */
import type pg from 'pg';

export interface FamilyUrl {
  family: string;
  url: string;
}

const timestamp = (ns: bigint | string) => {
  const text = String(ns);
  return `${text.slice(0, -9)}.${text.slice(-9)}`;
};
const id = (num: string) => `0.0.${num}`;

async function rows<T>(sql: pg.Client, text: string): Promise<T[]> {
  return (await sql.query(text)).rows as T[];
}

/** The URLs for the ledger as it is now (shard and realm are 0 on the simulated network). */
export async function familyUrls(sql: pg.Client): Promise<FamilyUrl[]> {
  const out: FamilyUrl[] = [];
  const add = (family: string, url: string) => out.push({ family, url: `/api/v1/${url}` });
  const [tip] = await rows<{ index: string; end: string; hash: string }>(
    sql,
    'select index::text, consensus_end::text as end, hash from record_file order by consensus_end desc limit 1',
  );
  if (!tip) return out;
  const end = BigInt(tip.end);

  add('blocks', `blocks/${tip.index}`);
  add('blocks', `blocks/0x${tip.hash}`);
  add('blocks', `blocks?block.number=lte:${tip.index}&limit=3`);
  add('blocks', `blocks?timestamp=lte:${timestamp(end)}&limit=2`);
  add('blocks', `blocks?timestamp=lte:${timestamp(end + 1n)}&limit=2`);
  add('blocks', `blocks?block.number=gte:${BigInt(tip.index) - 2n}&order=asc&limit=2`);
  add('blocks', 'blocks?limit=2');

  // The newest transactions, and some old enough for their id's window (shortened by the test) to have passed.
  const transactions = (from: bigint, to: bigint, limit: number) =>
    rows<{ ts: string; payer: string; valid_start: string; type: number; entity: string | null }>(
      sql,
      `select consensus_timestamp::text as ts, payer_account_id::text as payer, valid_start_ns::text as valid_start,
              type, entity_id::text as entity
         from transaction where consensus_timestamp > ${from} and consensus_timestamp <= ${to}
        order by consensus_timestamp desc limit ${limit}`,
    );
  const recent = [
    ...(await transactions(end - 30_000_000_000n, end, 8)),
    ...(await transactions(end - 45_000_000_000n, end - 25_000_000_000n, 6)),
  ];
  for (const tx of recent) {
    const at = timestamp(tx.ts);
    add('blocks', `blocks?timestamp=gte:${at}&limit=1&order=asc`);
    add('transactions', `transactions?timestamp=${at}`);
    add('transactions', `transactions?timestamp=lte:${at}&limit=3`);
    add('transactions', `transactions?account.id=${id(tx.payer)}&timestamp=lt:${at}&limit=2`);
    add('transactions', `transactions?timestamp=gt:${at}&order=asc&limit=2`);
    const txId = `${id(tx.payer)}-${tx.valid_start.slice(0, -9)}-${tx.valid_start.slice(-9)}`;
    add('transaction', `transactions/${txId}`);
    add('contract results', `contracts/results?timestamp=${at}&internal=true&limit=1`);
    add('network files', `network/exchangerate?timestamp=${at}`);
    add('network files', `network/fees?timestamp=${at}`);
    if (tx.type === 7 || tx.type === 50) {
      add('contract results', `contracts/results/${txId}`);
      add('contract results', `contracts/results/${txId}/actions`);
      if (tx.entity) add('contract results', `contracts/${id(tx.entity)}/results/${at}`);
    }
  }
  add('transactions', `transactions?timestamp=lte:${timestamp(end)}&limit=4`);
  add('transactions', `transactions?timestamp=lte:${timestamp(end + 1n)}&limit=4`);
  add('transactions', 'transactions?limit=3');

  const hashes = await rows<{ hash: string; ts: string; contract: string }>(
    sql,
    `select encode(transaction_hash, 'hex') as hash, consensus_timestamp::text as ts, contract_id::text as contract
       from contract_result where consensus_timestamp > ${end - 60_000_000_000n}
      order by consensus_timestamp desc limit 4`,
  );
  for (const result of hashes) {
    add('contract results', `contracts/results/0x${result.hash}`);
    add('contract results', `contracts/${id(result.contract)}/results?timestamp=lte:${timestamp(result.ts)}&limit=2`);
    add('contract logs', `contracts/${id(result.contract)}/results/logs?timestamp=${timestamp(result.ts)}`);
  }
  add('contract results', `contracts/results?timestamp=lte:${timestamp(end)}&limit=3`);
  add('contract logs', `contracts/results/logs?timestamp=lte:${timestamp(end)}&limit=3`);
  add('contract logs', `contracts/results/logs?timestamp=gt:${timestamp(end - 20_000_000_000n)}&order=asc&limit=2`);

  const topics = await rows<{ topic: string; seq: string; ts: string }>(
    sql,
    `select topic_id::text as topic, max(sequence_number)::text as seq, max(consensus_timestamp)::text as ts
       from topic_message group by topic_id order by count(*) desc limit 2`,
  );
  for (const topic of topics) {
    add('topic messages', `topics/${id(topic.topic)}/messages/${topic.seq}`);
    add('topic messages', `topics/messages/${timestamp(topic.ts)}`);
    add('topic messages', `topics/${id(topic.topic)}/messages?limit=2`);
    add('topic messages', `topics/${id(topic.topic)}/messages?sequencenumber=lte:${topic.seq}&order=desc&limit=3`);
    add('topic messages', `topics/${id(topic.topic)}/messages?timestamp=lte:${timestamp(end)}&order=desc&limit=2`);
    add('topic messages', `topics/${id(topic.topic)}/messages?limit=2&order=desc`);
  }

  const accounts = await rows<{ id: string }>(
    sql,
    `select id::text from entity where type = 'ACCOUNT' and evm_address is null order by id desc limit 2`,
  );
  for (const account of accounts) {
    add('not found', `contracts/${id(account.id)}`);
    add('not found', `tokens/${id(account.id)}`);
  }
  return out;
}
