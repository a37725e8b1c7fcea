/**
 * The Rosetta API held to the REST API on the same blocks: each block lists the transactions `/api/v1/blocks/{n}`'s
 * time range lists in `/api/v1/transactions` (by hash), and each transaction's operations move, per account, what
 * the transfers of `/api/v1/transactions/{id}`'s records with its hash move.
 */
import { inParallel, type WalkedBlock } from './block-walk.ts';

interface RestTransaction {
  consensus_timestamp: string;
  transaction_hash: string;
  transaction_id: string;
  transfers: { account: string; amount: number | string }[];
}

const hexOfBase64 = (text: string) => `0x${Buffer.from(text, 'base64').toString('hex')}`;
const nanos = (text: string) => {
  const [seconds = '0', fraction = '0'] = text.split('.');
  return BigInt(seconds) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0'));
};

// biome-ignore lint/suspicious/noExplicitAny: REST answers of several shapes, read field by field.
async function getJson(baseUrl: string, path: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${baseUrl}${path}`);
  return { status: res.status, body: await res.json() };
}

/** The net hbar each account moved, zeros left out. */
function netByAccount(entries: Iterable<[string, bigint]>): Map<string, bigint> {
  const net = new Map<string, bigint>();
  for (const [account, amount] of entries) net.set(account, (net.get(account) ?? 0n) + amount);
  for (const [account, amount] of net) if (amount === 0n) net.delete(account);
  return net;
}

const same = (a: Map<string, bigint>, b: Map<string, bigint>) =>
  a.size === b.size && [...a].every(([account, amount]) => b.get(account) === amount);

const show = (net: Map<string, bigint>) => JSON.stringify([...net].map(([a, v]) => `${a}:${v}`).sort());

/**
 * Where the walked blocks disagree with the REST API. `genesisStartNs` is where the genesis block starts (just
 * after the genesis snapshot): the REST block of the same record file may list transactions before it.
 */
export async function restDisagreements(
  baseUrl: string,
  blocks: readonly WalkedBlock[],
  genesisStartNs: bigint,
  concurrency: number,
): Promise<{ problems: string[]; transactionsCompared: number }> {
  const problems: string[] = [];
  let transactionsCompared = 0;
  /** The REST transaction id of each hash the blocks list. */
  const ids = new Map<string, string>();
  await inParallel(blocks, concurrency, async (block) => {
    const rest = await getJson(baseUrl, `/api/v1/blocks/${block.index}`);
    if (rest.status !== 200) {
      problems.push(`block ${block.index}: /api/v1/blocks answered ${rest.status}`);
      return;
    }
    const { from, to } = rest.body.timestamp as { from: string; to: string };
    const listed = new Set<string>();
    let next: string | null = `/api/v1/transactions?timestamp=gte:${from}&timestamp=lte:${to}&order=asc&limit=100`;
    while (next) {
      const page = await getJson(baseUrl, next);
      for (const transaction of page.body.transactions as RestTransaction[]) {
        if (nanos(transaction.consensus_timestamp) < genesisStartNs) continue;
        const hash = hexOfBase64(transaction.transaction_hash);
        listed.add(hash);
        if (!ids.has(hash)) ids.set(hash, transaction.transaction_id);
      }
      next = page.body.links.next;
    }
    const rosetta = new Set(block.transactions.map((t) => t.transaction_identifier.hash));
    const missing = [...listed].filter((hash) => !rosetta.has(hash));
    const extra = [...rosetta].filter((hash) => !listed.has(hash));
    if (missing.length > 0 || extra.length > 0) {
      problems.push(
        `block ${block.index}: REST lists ${missing.length} transactions Rosetta does not, Rosetta ${extra.length} REST does not`,
      );
    }
  });
  const transactions = blocks.flatMap((block) => block.transactions.map((transaction) => ({ block, transaction })));
  await inParallel(transactions, concurrency, async ({ block, transaction }) => {
    const hash = transaction.transaction_identifier.hash;
    const rosetta = netByAccount(
      transaction.operations.flatMap((op) =>
        op.account && op.amount ? [[op.account.address, BigInt(op.amount.value)] as [string, bigint]] : [],
      ),
    );
    // The simulated network gives no account a key alias: every account is shown by its id, as REST shows it.
    for (const account of rosetta.keys()) {
      if (account.startsWith('0x')) problems.push(`block ${block.index} ${hash}: ${account} has no REST id to compare`);
    }
    const id = ids.get(hash);
    if (!id) return;
    // Every record of the transaction id (the transaction, its children, a scheduled one) with this hash.
    const rest = await getJson(baseUrl, `/api/v1/transactions/${id}`);
    const records = ((rest.body.transactions ?? []) as RestTransaction[]).filter(
      (record) => hexOfBase64(record.transaction_hash) === hash,
    );
    const transfers = netByAccount(
      records.flatMap((record) => record.transfers.map((t) => [t.account, BigInt(t.amount)] as [string, bigint])),
    );
    transactionsCompared++;
    if (!same(rosetta, transfers)) {
      problems.push(`block ${block.index} ${hash} (${id}): Rosetta moves ${show(rosetta)}, REST ${show(transfers)}`);
    }
  });
  return { problems: problems.slice(0, 50), transactionsCompared };
}
