/**
 * Where a client goes from an answer: its `links.next`, and for each item of a list the detail and sub-routes of
 * the id it names, including the forms a JSON-RPC relay asks for (an account by EVM address without transactions,
 * a contract result by hash in weibar, the results and logs of a block).
 */

export interface FollowUp {
  readonly url: string;
  /** Built from an id an answer named (or a link it gave): anything but 200 is a finding. */
  readonly mustExist: boolean;
  readonly headers?: Record<string, string>;
}

type Item = Record<string, unknown>;

const API = '/api/v1';
const CONTRACT_TRANSACTIONS = new Set(['CONTRACTCALL', 'CONTRACTCREATEINSTANCE', 'ETHEREUMTRANSACTION']);

const itemsOf = (body: unknown, key: string): Item[] => {
  const list = (body as Record<string, unknown> | null)?.[key];
  return Array.isArray(list) ? (list as Item[]) : [];
};
const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : typeof value === 'number' ? String(value) : undefined;

const ACCOUNT_SUBROUTES = [
  'nfts',
  'rewards',
  'tokens',
  'airdrops/outstanding',
  'airdrops/pending',
  'allowances/crypto',
  'allowances/tokens',
  'allowances/nfts',
];

function accountLinks(account: Item): string[] {
  const id = text(account.account);
  if (!id) return [];
  const urls = [`${API}/accounts/${id}`, ...ACCOUNT_SUBROUTES.map((sub) => `${API}/accounts/${id}/${sub}`)];
  const evm = text(account.evm_address);
  if (evm) {
    urls.push(
      `${API}/accounts/${evm}`,
      `${API}/accounts/${evm}?transactions=false`,
      `${API}/accounts/${evm}?transactiontype=ETHEREUMTRANSACTION&limit=2&order=desc`,
    );
  }
  const alias = text(account.alias);
  if (alias) urls.push(`${API}/accounts/${alias}`);
  return urls;
}

function contractLinks(contract: Item): string[] {
  const id = text(contract.contract_id);
  if (!id) return [];
  const urls = ['', '/results', '/state', '/results/logs'].map((sub) => `${API}/contracts/${id}${sub}`);
  const evm = text(contract.evm_address);
  if (evm) urls.push(`${API}/contracts/${evm}`, `${API}/contracts/${evm}/results/logs?limit=100&order=asc`);
  return urls;
}

function resultLinks(result: Item): string[] {
  const urls: string[] = [];
  const hash = text(result.hash);
  if (hash) {
    urls.push(
      `${API}/contracts/results/${hash}`,
      `${API}/contracts/results/${hash}?hbar=false`,
      `${API}/contracts/results/${hash}/actions`,
    );
  }
  const contract = text(result.contract_id);
  const timestamp = text(result.timestamp);
  if (contract && timestamp) urls.push(`${API}/contracts/${contract}/results/${timestamp}`);
  return urls;
}

function transactionLinks(transaction: Item): string[] {
  const id = text(transaction.transaction_id);
  if (!id) return [];
  const urls = [`${API}/transactions/${id}`];
  const name = text(transaction.name) ?? '';
  const entity = text(transaction.entity_id);
  if (CONTRACT_TRANSACTIONS.has(name)) urls.push(`${API}/contracts/results/${id}`);
  if (name === 'CONSENSUSSUBMITMESSAGE' && entity) {
    urls.push(`${API}/topics/${entity}`, `${API}/topics/${entity}/messages`);
    const timestamp = text(transaction.consensus_timestamp);
    if (timestamp && transaction.result === 'SUCCESS') urls.push(`${API}/topics/messages/${timestamp}`);
  }
  return urls;
}

function blockLinks(block: Item): string[] {
  const urls: string[] = [];
  const number = text(block.number);
  const hash = text(block.hash);
  if (number) urls.push(`${API}/blocks/${number}`);
  if (hash) {
    urls.push(`${API}/blocks/${hash}`, `${API}/contracts/results?block.hash=${hash}&limit=100&order=asc`);
  }
  const range = block.timestamp as { from?: string; to?: string } | undefined;
  if (range?.from && range.to) {
    urls.push(
      `${API}/blocks?timestamp=lte:${range.to}&limit=1&order=desc`,
      `${API}/contracts/results?timestamp=gte:${range.from}&timestamp=lte:${range.to}&limit=100&order=asc`,
      `${API}/contracts/results/logs?timestamp=gte:${range.from}&timestamp=lte:${range.to}&limit=100&order=asc`,
    );
  }
  return urls;
}

/** The follow-ups of a 200 answer to `url`, whose path matches `template`. */
export function followUps(template: string, url: string, body: unknown): FollowUp[] {
  const urls: string[] = [];
  const next = text((body as { links?: { next?: unknown } } | null)?.links?.next);
  if (next) urls.push(next);
  const path = template.slice(API.length);
  if (path === '/accounts') for (const a of itemsOf(body, 'accounts')) urls.push(...accountLinks(a));
  if (path === '/blocks') for (const b of itemsOf(body, 'blocks')) urls.push(...blockLinks(b));
  if (path === '/contracts') for (const c of itemsOf(body, 'contracts')) urls.push(...contractLinks(c));
  if (path === '/contracts/results' || path === '/contracts/{contractIdOrAddress}/results') {
    for (const r of itemsOf(body, 'results')) urls.push(...resultLinks(r));
  }
  if (path === '/transactions' || path === '/accounts/{idOrAliasOrEvmAddress}') {
    for (const t of itemsOf(body, 'transactions')) urls.push(...transactionLinks(t));
  }
  if (path === '/schedules') {
    for (const s of itemsOf(body, 'schedules')) urls.push(`${API}/schedules/${text(s.schedule_id)}`);
  }
  if (path === '/tokens') {
    for (const t of itemsOf(body, 'tokens')) {
      const id = text(t.token_id);
      urls.push(`${API}/tokens/${id}`, `${API}/tokens/${id}/balances`, `${API}/tokens/${id}/nfts`);
    }
  }
  if (path === '/tokens/{tokenId}/nfts' || path === '/accounts/{idOrAliasOrEvmAddress}/nfts') {
    for (const n of itemsOf(body, 'nfts')) {
      const nft = `${API}/tokens/${text(n.token_id)}/nfts/${text(n.serial_number)}`;
      urls.push(nft, `${nft}/transactions`);
    }
  }
  if (path === '/topics/{topicId}/messages') {
    for (const m of itemsOf(body, 'messages')) {
      urls.push(`${API}/topics/${text(m.topic_id)}/messages/${text(m.sequence_number)}`);
    }
  }
  const out: FollowUp[] = urls.map((u) => ({ url: u, mustExist: true }));
  // An account's next page of transactions asks for the account as it was before the oldest one listed; when that
  // is the one that created it, the account did not exist yet and the reference answers 404 as well.
  if (next && path === '/accounts/{idOrAliasOrEvmAddress}') out[0] = { url: next, mustExist: false };
  // The opcode trace of a contract result (a replay: the crawl asks for it once per result it reaches by id).
  if (path === '/contracts/results/{transactionIdOrHash}' && !url.includes('?')) {
    const hash = text((body as Item).hash);
    if (hash) out.push({ url: `${API}/contracts/results/${hash}/opcodes`, mustExist: true, headers: gzip });
  }
  return out;
}

const gzip = { 'accept-encoding': 'gzip' };
