/**
 * The API requests of the Hiero explorer (hiero-ledger/hiero-mirror-node-explorer, src/) per page, as a network
 * with staking, expiry and market data shows them (mainnet's settings), for the page's first load: each table's
 * request (`get`, sent again on every load) and the lookups of the per-entity caches (`lookup`, once per page load),
 * with the per-row lookups the rows cause. Checked against the requests the built explorer made in Chromium against
 * `npm start`. Requests to other origins (charts, Sourcify, 4byte) are not the mirror's and are left out.
 */
import type { PageVisit } from './visit.ts';

/** What the pages show, picked from the live ledger. */
export interface Targets {
  /** One transaction per kind: its consensus timestamp (the explorer's transaction page URL). */
  transactions: { kind: string; timestamp: string }[];
  account: string;
  token: string;
  nft: { token: string; serial: string };
  topic: string;
  contract: string;
  block: string;
}

export interface Page {
  name: string;
  load(visit: PageVisit, targets: Targets): Promise<void>;
}

interface Transaction {
  consensus_timestamp: string;
  entity_id: string | null;
  name: string;
  node: string | null;
  transaction_id: string;
  transfers?: { account: string }[];
  token_transfers?: { token_id: string }[];
  nft_transfers?: { token_id: string }[];
}

type List<K extends string, T> = Record<K, T[]> & { links?: { next: string | null } };

const CONTRACT_KINDS = new Set(['CONTRACTCALL', 'ETHEREUMTRANSACTION']);
const TOKEN_KINDS = new Set(['TOKENCREATION', 'TOKENMINT', 'TOKENBURN', 'TOKENUPDATE', 'TOKENWIPE', 'TOKENPAUSE']);
const NODES = 'network/nodes?limit=100';

const blockOf = (timestamp: string) => `blocks?timestamp=gte:${timestamp}&limit=1&order=asc`;
/** An entity id's long-zero EVM address, as the explorer writes it for `/accounts/0x…` and `/contracts/0x…`. */
const longZero = (id: string) =>
  `0x${BigInt(id.split('.').pop() ?? '0')
    .toString(16)
    .padStart(40, '0')}`;

/** A row of a transaction table: TransactionAnalyzer, TransactionSummary (TokenExtra), InnerSenderEVMAddress. */
async function transactionRow(visit: PageVisit, tx: Transaction): Promise<void> {
  if (CONTRACT_KINDS.has(tx.name) && tx.entity_id) {
    await visit.lookup(`contracts/${tx.entity_id}`);
    const result = await visit.lookup<{ from?: string }>(`contracts/results/${tx.transaction_id}`);
    if (result?.from) await visit.lookup(`accounts/${result.from}`);
  }
  await visit.lookup(blockOf(tx.consensus_timestamp));
  if (tx.name === 'TOKENASSOCIATE' && tx.entity_id) await visit.lookup(`accounts/${tx.entity_id}/tokens?limit=100`);
  const token = tx.token_transfers?.[0]?.token_id ?? tx.nft_transfers?.[0]?.token_id;
  if (token) await visit.lookup(`tokens/${token}`);
}

async function transactionRows(visit: PageVisit, list: List<'transactions', Transaction> | undefined): Promise<void> {
  for (const tx of list?.transactions ?? []) await transactionRow(visit, tx);
}

/** TransactionDetails: the transaction, its block, fees and rates at its time, and every account it names. */
async function transactionPage(visit: PageVisit, timestamp: string): Promise<void> {
  await visit.lookup(NODES);
  const list = await visit.get<List<'transactions', Transaction>>(`transactions?timestamp=${timestamp}`);
  // The topic message lookup runs before the transaction is known: with no timestamp (a 400 the explorer ignores).
  await visit.get('topics/messages/');
  const tx = list?.transactions?.[0];
  if (!tx) return;
  if (tx.name === 'CONSENSUSSUBMITMESSAGE') await visit.lookup(`topics/messages/${timestamp}`);
  await visit.lookup(`transactions/${tx.transaction_id}`);
  await visit.lookup(blockOf(timestamp));
  let result: { from?: string; hash?: string } | undefined;
  if (CONTRACT_KINDS.has(tx.name) && tx.entity_id) {
    await visit.lookup(`contracts/${tx.entity_id}`);
    result = await visit.lookup(`contracts/results/${tx.transaction_id}`);
    if (result?.from) await visit.lookup(`accounts/${result.from}`);
  }
  if (tx.node) await visit.lookup(`contracts/${tx.node}`);
  await visit.lookup(`contracts/results?timestamp=${timestamp}&internal=true&limit=1`);
  await visit.lookup(`network/fees?timestamp=${timestamp}`);
  await visit.lookup(`network/exchangerate?timestamp=${timestamp}`);
  if (TOKEN_KINDS.has(tx.name) && tx.entity_id) await visit.lookup(`tokens/${tx.entity_id}`);
  if (tx.name === 'CRYPTOCREATEACCOUNT' && tx.entity_id) await visit.lookup(`contracts/${tx.entity_id}`);
  // Every account the transfers name is looked up as a contract, to link it as one.
  const payer = tx.transaction_id.split('-')[0];
  const accounts = new Set([payer, ...(tx.transfers ?? []).map((t) => t.account)]);
  for (const account of accounts) if (account) await visit.lookup(`contracts/${account}`);
  if (CONTRACT_KINDS.has(tx.name) && tx.entity_id) {
    await visit.lookup(`contracts/${tx.entity_id}/results/${timestamp}`);
    if (result?.hash) await visit.lookup(`contracts/results/${result.hash}/actions?limit=100`);
    if (result?.from) await visit.lookup(`contracts/${result.from}`);
    if (payer) await visit.lookup(`tokens/${payer}`);
  }
}

/** MainDashboard with market data: NetworkMetricsLoader's rates and supply now and a day ago (sequential). */
async function dashboard(visit: PageVisit): Promise<void> {
  const now = Date.now();
  const at = (ms: number) => String(ms / 1000);
  for (const path of ['network/exchangerate', 'network/supply']) {
    for (const time of [now, now - 86_400_000]) await visit.lookup(`${path}?timestamp=${at(time)}`);
  }
}

/** AccountDetails with its balances, tokens, NFTs, allowances, airdrops and each tab of its recent operations. */
async function account(visit: PageVisit, id: string): Promise<void> {
  const found = await visit.get<{ evm_address?: string; created_timestamp?: string }>(`accounts/${id}`);
  await visit.lookup(NODES);
  await visit.get(`accounts/${id}/rewards?limit=1`);
  await visit.get(`balances?account.id=${id}`);
  await visit.lookup(`contracts/${id}`);
  if (found?.created_timestamp) await visit.lookup(`transactions?timestamp=${found.created_timestamp}`);
  await visit.lookup('network/exchangerate');
  const transactions = await visit.get<List<'transactions', Transaction>>(
    `transactions?limit=10&order=desc&account.id=${id}`,
  );
  if (found?.evm_address) await visit.lookup(`contracts/${found.evm_address}`);
  await visit.get(`accounts/${id}/allowances/nfts?limit=10&order=asc`);
  const nfts = await visit.get<List<'nfts', { token_id: string }>>(`accounts/${id}/nfts?limit=6&order=asc`);
  const tokens = await visit.get<List<'tokens', { token_id: string }>>(
    `tokens?account.id=${id}&limit=6&order=asc&type=FUNGIBLE_COMMON`,
  );
  for (let i = 0; i < 2; i++) await visit.get(`accounts/${id}/airdrops/pending?limit=6&order=desc`);
  await visit.get(`accounts/${id}/allowances/crypto?limit=10&order=asc`);
  await visit.get(`accounts/${id}/allowances/tokens?limit=10&order=asc`);
  await visit.get(`accounts/${id}/nfts?limit=10&order=asc&spender.id=gte:0.0.1`);
  await visit.lookup(`tokens/${id}`);
  await transactionRows(visit, transactions);
  for (const { token_id } of tokens?.tokens ?? []) {
    await visit.lookup(`accounts/${id}/tokens?token.id=${token_id}&limit=1`);
    await visit.lookup(`tokens/${token_id}`);
  }
  for (const { token_id } of nfts?.nfts ?? []) await visit.lookup(`tokens/${token_id}`);
  await visit.lookup(`accounts/${longZero(id)}`);
  for (let i = 0; i < 2; i++) await visit.get(`accounts/${id}/airdrops/pending?limit=6&order=desc`);
  // The other tabs of recent operations: contracts created, staking rewards.
  await visit.get(
    `transactions?limit=10&order=desc&transactiontype=CONTRACTCREATEINSTANCE&result=success&account.id=${id}`,
  );
  await visit.get(`accounts/${id}/rewards?limit=10&order=desc`);
}

/** TokenDetails (fungible, or an NFT collection with each NFT of its first page). */
async function token(visit: PageVisit, id: string, collection: boolean): Promise<void> {
  await visit.lookup(NODES);
  const info = await visit.get<{ created_timestamp?: string; treasury_account_id?: string }>(`tokens/${id}`);
  await visit.get(`contracts/${id}/results?limit=10&order=desc`);
  if (info?.created_timestamp) await visit.lookup(`transactions?timestamp=${info.created_timestamp}`);
  if (info?.treasury_account_id) await visit.lookup(`contracts/${info.treasury_account_id}`);
  await visit.lookup(`contracts/${id}`);
  await visit.lookup(`contracts/${longZero(id)}`);
  if (collection) {
    const nfts = await visit.get<List<'nfts', { serial_number: number }>>(`tokens/${id}/nfts?limit=10&order=asc`);
    await visit.lookup(`accounts/${longZero(id)}`);
    for (const { serial_number } of nfts?.nfts ?? []) await visit.lookup(`tokens/${id}/nfts/${serial_number}`);
  } else {
    await visit.get(`tokens/${id}/balances?limit=10&order=asc`);
    await visit.lookup(`accounts/${longZero(id)}`);
  }
}

/** NftDetails: the NFT, its collection and its history. */
async function nft(visit: PageVisit, { token: id, serial }: Targets['nft']): Promise<void> {
  await visit.lookup(NODES);
  await visit.get(`contracts/${id}/results?limit=10&order=desc`);
  await visit.lookup(`tokens/${id}`);
  const found = await visit.get<{ account_id?: string; created_timestamp?: string }>(`tokens/${id}/nfts/${serial}`);
  await visit.get(`tokens/${id}/nfts/${serial}/transactions?limit=10&order=desc`);
  if (found?.account_id) await visit.lookup(`contracts/${found.account_id}`);
  if (found?.created_timestamp) await visit.lookup(`transactions?timestamp=${found.created_timestamp}`);
}

/** TopicDetails: the topic, its latest messages, its HCS asset check (the first 100 messages). */
async function topic(visit: PageVisit, id: string): Promise<void> {
  const found = await visit.get<{ auto_renew_account?: string }>(`topics/${id}`);
  await visit.get(`topics/${id}/messages?limit=15&order=desc`);
  await visit.lookup(`topics/${id}/messages?limit=100&order=asc`);
  await visit.lookup(NODES);
  if (found?.auto_renew_account) await visit.lookup(`contracts/${found.auto_renew_account}`);
}

/** ERC-165 detection (ERCUtils.isERC165): supportsInterface(0x01ffc9a7), then supportsInterface(0xffffffff). */
const SUPPORTS_INTERFACE = ['01ffc9a7', 'ffffffff'].map((id) => `0x01ffc9a7${id.padEnd(64, '0')}`);
/** EIP-1967 implementation and beacon slots, read to tell a proxy (LogicContractCache). */
const PROXY_SLOTS = [
  '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
];

/** ContractDetails: the contract as contract and account, its logs, results, holdings and each result's sender. */
async function contract(visit: PageVisit, id: string): Promise<void> {
  await visit.lookup(NODES);
  const found = await visit.get<{ evm_address?: string; created_timestamp?: string }>(`contracts/${id}`);
  await visit.get(`accounts/${id}`);
  await visit.get(`contracts/${id}/results/logs?limit=100&order=desc`);
  await visit.get(`balances?account.id=${id}`);
  if (found?.created_timestamp) await visit.lookup(`transactions?timestamp=${found.created_timestamp}`);
  for (const slot of PROXY_SLOTS) await visit.lookup(`contracts/${id}/state?slot=${slot}`);
  for (let i = 0; i < 2; i++) await visit.get(`accounts/${id}/airdrops/pending?limit=6&order=desc`);
  await visit.get(`accounts/${id}/nfts?limit=6&order=asc`);
  await visit.get(`tokens?account.id=${id}&limit=6&order=asc&type=FUNGIBLE_COMMON`);
  const results = await visit.get<List<'results', { from?: string }>>(`contracts/${id}/results?limit=10&order=desc`);
  for (const data of SUPPORTS_INTERFACE)
    await visit.post('contracts/call', { data, to: found?.evm_address ?? longZero(id) });
  await visit.lookup('network/exchangerate');
  const senders = new Set((results?.results ?? []).flatMap((r) => (r.from ? [r.from] : [])));
  for (const from of senders) {
    await visit.lookup(`contracts/${from}`);
    await visit.lookup(`accounts/${from}`);
  }
}

/** Blocks: the latest page. Block: the block, its transactions (TransactionGroupByBlockCache) and their rows. */
async function blocks(visit: PageVisit): Promise<void> {
  await visit.get('blocks?limit=15&order=desc');
}

async function block(visit: PageVisit, number: string): Promise<void> {
  const found = await visit.lookup<{ count?: number; timestamp?: { to?: string } }>(`blocks/${number}`);
  if (!found?.timestamp?.to || !found.count) return;
  const list = await visit.get<List<'transactions', Transaction>>(
    `transactions?limit=${Math.min(found.count, 100)}&timestamp=lte:${found.timestamp.to}`,
  );
  await visit.lookup(NODES);
  await transactionRows(visit, list);
}

/** The pages in the order a visitor opens them. */
export function explorerPages(targets: Targets): Page[] {
  return [
    { name: 'dashboard', load: (visit) => dashboard(visit) },
    {
      name: 'transactions',
      load: async (visit) => {
        // The table loads twice on mount (its page size and its route both set it).
        const list = await visit.get<List<'transactions', Transaction>>('transactions?limit=15&order=desc');
        await visit.get('transactions?limit=15&order=desc');
        await visit.lookup(NODES);
        await transactionRows(visit, list);
      },
    },
    ...targets.transactions.map(({ kind, timestamp }) => ({
      name: `transaction ${kind}`,
      load: (visit: PageVisit) => transactionPage(visit, timestamp),
    })),
    { name: 'account', load: (visit) => account(visit, targets.account) },
    { name: 'token', load: (visit) => token(visit, targets.token, false) },
    { name: 'nft collection', load: (visit) => token(visit, targets.nft.token, true) },
    { name: 'nft', load: (visit) => nft(visit, targets.nft) },
    { name: 'topic', load: (visit) => topic(visit, targets.topic) },
    { name: 'contract', load: (visit) => contract(visit, targets.contract) },
    { name: 'blocks', load: (visit) => blocks(visit) },
    { name: 'block', load: (visit) => block(visit, targets.block) },
  ];
}
