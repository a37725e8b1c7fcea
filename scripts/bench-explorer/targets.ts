/** What the replayed pages show, picked from the live ledger once it holds every kind of thing they need. */
import pg from 'pg';
import { transactionTypeByName } from '../../db/codes/transaction-types.ts';
import type { Targets } from './pages.ts';

/** The transaction kinds whose pages are visited: the common kinds of the simulated network's mix. */
export const TRANSACTION_KINDS = [
  'CRYPTOTRANSFER',
  'CRYPTOCREATEACCOUNT',
  'CONTRACTCALL',
  'ETHEREUMTRANSACTION',
  'TOKENCREATION',
  'TOKENMINT',
  'TOKENASSOCIATE',
  'CONSENSUSSUBMITMESSAGE',
  'SCHEDULECREATE',
];

const id = (value: string | undefined) => (value === undefined ? undefined : `0.0.${value}`);
const timestamp = (ns: string) => `${ns.slice(0, -9)}.${ns.slice(-9)}`;

/**
 * The targets, or undefined while the ledger lacks one of them. A transaction of each kind (the newest successful
 * one), the account and topic with the most activity, a fungible token and an NFT, the contract with the most
 * results, and a block a few below the newest. Shard and realm are 0 on the simulated network.
 */
export async function pickTargets(databaseUrl: string): Promise<Targets | undefined> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const one = async (text: string, values: unknown[] = []) =>
      (await client.query<{ v: string }>(text, values)).rows[0]?.v;
    const transactions: Targets['transactions'] = [];
    for (const kind of TRANSACTION_KINDS) {
      const found = await one(
        'select max(consensus_timestamp)::text as v from transaction where type = $1 and result = 22',
        [transactionTypeByName(kind)],
      );
      if (found === undefined || found === null) return undefined;
      transactions.push({ kind, timestamp: timestamp(found) });
    }
    const account = await one(`select entity_id::text as v from crypto_transfer where entity_id > 1000
                                group by entity_id order by count(*) desc limit 1`);
    const token = await one(`select token_id::text as v from token where type = 'FUNGIBLE_COMMON'
                              order by token_id limit 1`);
    const nft = (
      await client.query<{ token: string; serial: string }>(
        `select token_id::text as token, serial_number::text as serial from nft where deleted is false
          order by token_id, serial_number limit 1`,
      )
    ).rows[0];
    const topic = await one(
      'select topic_id::text as v from topic_message group by topic_id order by count(*) desc limit 1',
    );
    const contract = await one(`select contract_id::text as v from contract_result where contract_id > 1000
                                 group by contract_id order by count(*) desc limit 1`);
    const block = await one('select (max(index) - 3)::text as v from record_file');
    if (!account || !token || !nft || !topic || !contract || !block || BigInt(block) < 0n) return undefined;
    return {
      transactions,
      account: id(account) as string,
      token: id(token) as string,
      nft: { token: id(nft.token) as string, serial: nft.serial },
      topic: id(topic) as string,
      contract: id(contract) as string,
      block,
    };
  } finally {
    await client.end();
  }
}
