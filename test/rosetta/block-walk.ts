/**
 * A walk of every block through the Rosetta API from the genesis block, checking what Mesh's `check:data` checks:
 * each block's parent is the block before it, block and transaction hashes are unique, operation indexes are
 * contiguous and related operations point backwards, every operation type and status is one `/network/options`
 * lists, the same block by hash and by index answer the same, and every account's hbar balance carried forward from
 * its successful operations equals `/account/balance` at each block in which it changed, never negative. Every
 * answer is checked against the Mesh document on the way (postMesh).
 */
import { postMesh } from '../harness/mesh-document.ts';

export interface MeshOperation {
  operation_identifier: { index: number };
  related_operations?: { index: number }[];
  type: string;
  status?: string;
  account?: { address: string };
  amount?: { value: string; currency: { symbol: string } };
}

export interface MeshTransaction {
  transaction_identifier: { hash: string };
  operations: MeshOperation[];
}

export interface WalkedBlock {
  index: number;
  hash: string;
  transactions: MeshTransaction[];
}

export interface WalkOptions {
  baseUrl: string;
  network: { blockchain: string; network: string };
  /** An account's balance at the genesis snapshot, for accounts the genesis block changes. */
  genesisBalance(address: string): Promise<bigint>;
  /** Balance requests in flight at once. */
  concurrency: number;
}

export interface WalkReport {
  blocks: WalkedBlock[];
  balanceChecks: number;
  requests: number;
  /** Milliseconds spent waiting for each endpoint's answers, and how many. */
  timings: Map<string, { ms: number; count: number }>;
  problems: string[];
}

/** Runs `task` over `items`, at most `limit` at once. */
export async function inParallel<T>(items: readonly T[], limit: number, task: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function walkBlocks(options: WalkOptions): Promise<WalkReport> {
  const report: WalkReport = { blocks: [], balanceChecks: 0, requests: 0, timings: new Map(), problems: [] };
  const problem = (text: string) => report.problems.length < 50 && report.problems.push(text);
  const post = async (endpoint: string, body: object) => {
    report.requests++;
    const started = performance.now();
    const answer = await postMesh(options.baseUrl, endpoint, { network_identifier: options.network, ...body });
    const timing = report.timings.get(endpoint) ?? { ms: 0, count: 0 };
    report.timings.set(endpoint, { ms: timing.ms + performance.now() - started, count: timing.count + 1 });
    return answer;
  };
  const { body: allowed } = await post('/network/options', {});
  const types = new Set<string>(allowed.allow.operation_types);
  const successful = new Set<string>(
    allowed.allow.operation_statuses
      .filter((s: { successful: boolean }) => s.successful)
      .map((s: { status: string }) => s.status),
  );
  const statuses = new Set<string>(allowed.allow.operation_statuses.map((s: { status: string }) => s.status));
  const { body: status } = await post('/network/status', {});
  const genesis = status.genesis_block_identifier;
  const balanceAt = async (address: string, index: number): Promise<bigint> =>
    BigInt(
      (await post('/account/balance', { account_identifier: { address }, block_identifier: { index } })).body
        .balances[0].value,
    );

  const blockHashes = new Set<string>();
  const transactionHashes = new Set<string>();
  const carried = new Map<string, bigint>();
  let previous: { index: number; hash: string } | undefined;
  for (let index = genesis.index; index <= status.current_block_identifier.index; index++) {
    const byIndex = await post('/block', { block_identifier: { index } });
    const { block } = byIndex.body;
    const id = block.block_identifier;
    const byHash = await post('/block', { block_identifier: { hash: id.hash } });
    if (byHash.text !== byIndex.text) problem(`block ${index}: by hash and by index differ`);
    if (id.index !== index) problem(`block ${index}: answered as block ${id.index}`);
    if (blockHashes.has(id.hash)) problem(`block ${index}: hash ${id.hash} seen before`);
    blockHashes.add(id.hash);
    const parent = block.parent_block_identifier;
    const expectedParent = previous ?? id;
    if (parent.index !== expectedParent.index || parent.hash !== expectedParent.hash) {
      problem(`block ${index}: parent ${JSON.stringify(parent)}, not ${JSON.stringify(expectedParent)}`);
    }
    const transactions: MeshTransaction[] = [...block.transactions];
    for (const other of byIndex.body.other_transactions ?? []) {
      const answer = await post('/block/transaction', { block_identifier: id, transaction_identifier: other });
      transactions.push(answer.body.transaction);
    }
    const changes = new Map<string, bigint>();
    for (const transaction of transactions) {
      const hash = transaction.transaction_identifier.hash;
      if (transactionHashes.has(hash)) problem(`block ${index}: transaction ${hash} seen before`);
      transactionHashes.add(hash);
      transaction.operations.forEach((operation, position) => {
        const where = `block ${index} transaction ${hash} operation ${position}`;
        if (operation.operation_identifier.index !== position)
          problem(`${where}: index ${operation.operation_identifier.index}`);
        for (const related of operation.related_operations ?? []) {
          if (related.index >= position) problem(`${where}: related operation ${related.index} does not point back`);
        }
        if (!types.has(operation.type)) problem(`${where}: type ${operation.type} not in /network/options`);
        if (operation.status === undefined || !statuses.has(operation.status))
          problem(`${where}: status ${operation.status}`);
        if (!operation.account || !operation.amount || !successful.has(operation.status ?? '')) return;
        const address = operation.account.address;
        changes.set(address, (changes.get(address) ?? 0n) + BigInt(operation.amount.value));
      });
    }
    await inParallel([...changes], options.concurrency, async ([address, change]) => {
      const before =
        carried.get(address) ??
        (index === genesis.index ? await options.genesisBalance(address) : await balanceAt(address, index - 1));
      const after = before + change;
      carried.set(address, after);
      if (after < 0n) problem(`block ${index}: ${address} carried to a negative balance ${after}`);
      const served = await balanceAt(address, index);
      report.balanceChecks++;
      if (served !== after) problem(`block ${index}: ${address} has ${served}, its operations carry it to ${after}`);
    });
    report.blocks.push({ index, hash: id.hash, transactions });
    previous = id;
  }
  return report;
}
