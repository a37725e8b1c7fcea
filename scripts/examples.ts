/**
 * `npm run examples [-- --port N]`: the README's contract call examples for the local mirror `npm start` runs, with
 * the addresses of its chain filled in (the simulated network's entity numbers depend on its history): a SimToken
 * and a Counter contract (told apart by their memo, or by whether `decimals()` answers), and a fungible HTS token.
 * Each command is printed ready to paste, followed by what it answered just now.
 */

import { answerHelp } from '../common/cli-help.ts';
import { longZeroEvmAddress } from '../workers/params/entity-id.ts';

answerHelp(
  process.argv.slice(2),
  'usage: npm run examples [-- --port N]\n\nPrints curl commands for POST /api/v1/contracts/call on the running local mirror (port N, default PORT or 8787),\nwith the addresses of its SimToken and Counter contracts and of an HTS token filled in, and what each answered.',
);

const args = process.argv.slice(2);
const portAt = args.indexOf('--port');
const port = portAt >= 0 ? args[portAt + 1] : (process.env.PORT ?? '8787');
const base = `http://localhost:${port}/api/v1`;

const DECIMALS = '0x313ce567';
const TOTAL_SUPPLY = '0x18160ddd';
const INCREMENT_1 = '0x7cf5dab00000000000000000000000000000000000000000000000000000000000000001';

interface ContractRow {
  contract_id: string;
  evm_address: string;
  memo: string;
}

async function get<T>(path: string): Promise<T> {
  const response = await fetch(base + path);
  if (!response.ok) throw new Error(`GET ${base}${path} answered ${response.status}`);
  return (await response.json()) as T;
}

async function call(body: Record<string, unknown>): Promise<{ status: number; text: string }> {
  const response = await fetch(`${base}/contracts/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

/** The contract's kind: its memo names it on chains the simulator wrote since it does; else only SimToken has decimals. */
async function kindOf(contract: ContractRow): Promise<'SimToken' | 'Counter'> {
  if (/^(SimToken|Counter)\b/.test(contract.memo)) return contract.memo.startsWith('SimToken') ? 'SimToken' : 'Counter';
  return (await call({ to: contract.evm_address, data: DECIMALS })).status === 200 ? 'SimToken' : 'Counter';
}

async function main(): Promise<number> {
  const { contracts } = await get<{ contracts: ContractRow[] }>('/contracts?limit=25&order=asc');
  const found: Partial<Record<'SimToken' | 'Counter', ContractRow>> = {};
  for (const contract of contracts) {
    const kind = await kindOf(contract);
    found[kind] ??= contract;
    if (found.SimToken && found.Counter) break;
  }
  const { tokens } = await get<{ tokens: { token_id: string; symbol: string }[] }>(
    '/tokens?type=FUNGIBLE_COMMON&limit=1&order=asc',
  );
  const token = tokens[0];
  if (!found.SimToken || !found.Counter || !token) {
    console.error(
      'examples: the chain has no SimToken, Counter or fungible token yet: the simulated network creates them in its first minute; run this again shortly',
    );
    return 1;
  }
  const examples: [string, Record<string, unknown>][] = [
    [
      `decimals() of the SimToken contract ${found.SimToken.contract_id}`,
      { to: found.SimToken.evm_address, data: DECIMALS },
    ],
    [
      `totalSupply() of the HTS token ${token.token_id} (${token.symbol}), through its ERC-20 redirect`,
      { to: longZeroEvmAddress(BigInt(token.token_id.split('.')[2] ?? '0')), data: TOTAL_SUPPLY },
    ],
    [
      `increment(1) of the Counter contract ${found.Counter.contract_id}, estimated`,
      { to: found.Counter.evm_address, estimate: true, data: INCREMENT_1 },
    ],
  ];
  for (const [what, body] of examples) {
    const answer = await call(body);
    console.log(`# ${what}`);
    console.log(`curl -s ${base}/contracts/call -H 'content-type: application/json' -d '${JSON.stringify(body)}'`);
    console.log(`# answered ${answer.status}: ${answer.text}\n`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    console.error(
      `examples: ${error instanceof Error ? error.message : String(error)}${cause} (is npm start running on port ${port}?)`,
    );
    process.exit(1);
  },
);
