/**
 * `npm run test:sdk-integration -- --checkout DIR`: the official JavaScript SDK's own integration tests, unchanged,
 * against a running `npm start` (the Hiero local node's ports: their harness uses `Client.forLocalNode()`). The test
 * files come from a checkout of hiero-sdk-js (DIR, or HIERO_SDK_JS_CHECKOUT) and are never committed here; the SDK
 * source they import is the npm package's own `src/`. They are copied into .data/sdk-integration with `src` linked
 * to that package, run by vitest as the SDK's CI runs them (HEDERA_NETWORK=local-node, an ED25519 operator account
 * funded by 0.0.2, and 0.0.2 as the genesis operator), and each
 * file's passes and failures are printed. CI has no checkout and does not run this.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AccountCreateTransaction, Client, Hbar, PrivateKey } from '@hiero-ledger/sdk';
import { answerHelp } from '../common/cli-help.ts';
import { GENESIS_PRIVATE_KEY_DER } from '../simulator/network/genesis.ts';
import { REPO_ROOT } from './local-stack/worker-process.ts';
import { SELECTED_FILES } from './sdk-integration/selection.ts';

answerHelp(
  process.argv.slice(2),
  "usage: npm run test:sdk-integration -- --checkout DIR [--all] [--filter RE]\n\nRuns hiero-sdk-js test/integration files (the selection in scripts/sdk-integration/selection.ts, or --all)\nunchanged against a running npm start; prints each file's passed and failed tests.",
);

const OPERATOR_HBAR = 1_000_000;

const { values } = parseArgs({
  options: {
    checkout: { type: 'string', default: process.env.HIERO_SDK_JS_CHECKOUT },
    all: { type: 'boolean', default: false },
    filter: { type: 'string' },
  },
});
const checkout = values.checkout;
const tests = checkout ? path.join(checkout, 'test/integration') : '';
if (!checkout || !existsSync(tests)) {
  console.error(
    'sdk-integration: give --checkout DIR (or HIERO_SDK_JS_CHECKOUT), a checkout of hiero-sdk-js with test/integration',
  );
  process.exit(2);
}

const reachable = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
for (const [port, what] of [
  [50211, 'the consensus node 0.0.3'],
  [5600, "the mirror's gRPC API"],
  [5551, "the mirror's REST API"],
] as const) {
  if (!(await reachable(port))) {
    console.error(
      `sdk-integration: nothing answers on 127.0.0.1:${port} (${what}): run \`SIMULATE_LOAD=0 npm start\` first`,
    );
    process.exit(2);
  }
}

const work = path.join(REPO_ROOT, '.data/sdk-integration');
rmSync(work, { recursive: true, force: true });
mkdirSync(path.join(work, 'test'), { recursive: true });
cpSync(tests, path.join(work, 'test/integration'), { recursive: true });
// The test files import `../../src/…`: the SDK package's own source, the same version the project depends on.
symlinkSync(path.join(REPO_ROOT, 'node_modules/@hiero-ledger/sdk/src'), path.join(work, 'src'));
// Packages the SDK's source resolves to copies of its own (nested under it) resolve to the same copies from the tests,
// as in the SDK's repository: a test that spies on @grpc/grpc-js must see the SDK's instance of it.
linkNestedPackages(
  path.join(REPO_ROOT, 'node_modules/@hiero-ledger/sdk/node_modules'),
  path.join(work, 'node_modules'),
);
const sdkVersion = JSON.parse(
  readFileSync(path.join(REPO_ROOT, 'node_modules/@hiero-ledger/sdk/package.json'), 'utf8'),
).version;
writeFileSync(path.join(work, 'package.json'), '{ "type": "module" }\n');
writeFileSync(
  path.join(work, 'vitest.config.mjs'),
  `export default {
  test: {
    root: ${JSON.stringify(work)},
    include: ['test/integration/*.js'],
    exclude: ['test/integration/contents.js'],
    globals: true,
    environment: 'node',
    isolate: false,
    fileParallelism: false,
    hookTimeout: 120000,
    testTimeout: 120000,
  },
  define: { __SDK_VERSION__: ${JSON.stringify(JSON.stringify(sdkVersion))} },
};
`,
);

const operator = await createOperator();
console.log(`sdk-integration: operator ${operator.id}, genesis operator 0.0.2`);

const pattern = values.filter ? new RegExp(values.filter) : undefined;
const files = (values.all ? readdirNames(path.join(work, 'test/integration')) : [...SELECTED_FILES]).filter(
  (file) => !pattern || pattern.test(file),
);
const results = path.join(work, 'results.json');
const run = spawnSync(
  process.execPath,
  [
    path.join(REPO_ROOT, 'node_modules/vitest/vitest.mjs'),
    'run',
    '--config',
    path.join(work, 'vitest.config.mjs'),
    '--reporter=json',
    `--outputFile=${results}`,
    ...files.map((file) => `test/integration/${file}`),
  ],
  {
    cwd: work,
    stdio: ['ignore', 'ignore', 'inherit'],
    // As in the SDK's CI: the operator is an ordinary ED25519 account, 0.0.2 with the genesis key is the genesis
    // operator (the HIP-1300 tests pay with it, and check that an ordinary payer is held to 6 KiB).
    env: {
      ...process.env,
      HEDERA_NETWORK: 'local-node',
      OPERATOR_ID: operator.id,
      OPERATOR_KEY: operator.key,
      GENESIS_OPERATOR_ID: '0.0.2',
      GENESIS_OPERATOR_KEY: GENESIS_PRIVATE_KEY_DER,
    },
  },
);
if (!existsSync(results)) {
  console.error(`sdk-integration: vitest wrote no results (exit ${run.status})`);
  process.exit(1);
}

interface Report {
  testResults: {
    name: string;
    assertionResults: { title: string; status: string; failureMessages: string[] }[];
    message?: string;
  }[];
}
const report = JSON.parse(readFileSync(results, 'utf8')) as Report;
let passed = 0;
let failed = 0;
for (const file of report.testResults.sort((a, b) => a.name.localeCompare(b.name))) {
  const ok = file.assertionResults.filter((t) => t.status === 'passed').length;
  const bad = file.assertionResults.filter((t) => t.status === 'failed');
  passed += ok;
  failed += bad.length;
  console.log(
    `${path.basename(file.name)}: ${ok} passed, ${bad.length} failed${file.message ? ` (${file.message.split('\n')[0]})` : ''}`,
  );
  for (const test of bad)
    console.log(`  × ${test.title}: ${(test.failureMessages[0] ?? '').split('\n')[0]?.slice(0, 200)}`);
}
console.log(`${passed} passed, ${failed} failed`);

/** An ED25519 account holding a million hbar from 0.0.2, as the SDK's CI gives its operator one from Solo. */
async function createOperator(): Promise<{ id: string; key: string }> {
  const client = Client.forNetwork({ '127.0.0.1:50211': '0.0.3' }).setOperator(
    '0.0.2',
    PrivateKey.fromStringDer(GENESIS_PRIVATE_KEY_DER),
  );
  try {
    const key = PrivateKey.generateED25519();
    const response = await new AccountCreateTransaction()
      .setKeyWithoutAlias(key.publicKey)
      .setInitialBalance(new Hbar(OPERATOR_HBAR))
      .execute(client);
    const { accountId } = await response.getReceipt(client);
    if (!accountId) throw new Error('the operator account was not created');
    return { id: accountId.toString(), key: key.toStringDer() };
  } finally {
    client.close();
  }
}

function linkNestedPackages(from: string, to: string): void {
  if (!existsSync(from)) return;
  for (const name of readdirSync(from)) {
    if (name.startsWith('.')) continue;
    if (name.startsWith('@')) {
      linkNestedPackages(path.join(from, name), path.join(to, name));
      continue;
    }
    mkdirSync(to, { recursive: true });
    symlinkSync(path.join(from, name), path.join(to, name));
  }
}

function readdirNames(dir: string): string[] {
  return readdirSync(dir).filter((name) => name.endsWith('.js') && name !== 'contents.js');
}
