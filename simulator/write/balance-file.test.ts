import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAddressBook } from '../../ingest/decode/address-book.ts';
import { verifyBalanceFile } from '../../ingest/pipeline/verify-balance-file.ts';
import { BalanceStreamSource } from '../../ingest/sources/balance-stream-source.ts';
import { DirStore } from '../../ingest/sources/dir-store.ts';
import { nodeKeysOf } from '../../ingest/verify/node-keys.ts';
import { TOTAL_SUPPLY_TINYBARS } from '../ledger/ledger.ts';
import { parseOptions } from '../main.ts';
import { simulate } from '../run.ts';
import { ADDRESS_BOOK_FILE } from './layout.ts';

let out: string;

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'simulator-balances-'));
  await simulate(parseOptions(['--out', out, '--files', '2', '--tps', '20', '--nodes', '5']));
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

async function balanceFiles(dir: string) {
  const keys = nodeKeysOf(parseAddressBook(new Uint8Array(readFileSync(path.join(dir, ADDRESS_BOOK_FILE)))));
  const source = new BalanceStreamSource(new DirStore(dir));
  const pending = await source.nextFiles(undefined);
  return Promise.all(pending.map((file) => verifyBalanceFile(source.store, file, keys)));
}

describe('the genesis balance file', () => {
  it('states every account of the genesis state at the chain start, signed by every node', async () => {
    const [genesis, ...others] = await balanceFiles(out);
    expect(others).toEqual([]);
    expect(genesis?.parsed.name).toBe('2025-01-01T00_00_00Z_Balances.pb.gz');
    expect(genesis?.parsed.consensusTimestamp).toBe(1735689600000000000n);
    expect(genesis?.signatureProblems).toEqual([]);
    expect(genesis?.parsed.accounts.map((a) => [a.accountId, a.balance])).toEqual([
      [2n, TOTAL_SUPPLY_TINYBARS],
      ...[3n, 4n, 5n, 6n, 7n, 98n, 800n, 801n].map((num) => [num, 0n]),
    ]);
    for (let node = 3; node <= 7; node++) {
      expect(readdirSync(path.join(out, `accountBalances/balance0.0.${node}`)).sort()).toEqual([
        '2025-01-01T00_00_00Z_Balances.pb.gz',
        '2025-01-01T00_00_00Z_Balances.pb_sig.gz',
      ]);
    }
    const records = readdirSync(path.join(out, 'recordstreams/record0.0.3')).filter((name) => name.endsWith('.rcd.gz'));
    expect(records.sort()[0]).toMatch(/^2025-01-01T00_00_00\.\d{9}Z\.rcd\.gz$/);
    expect(records.sort()[0]).not.toBe('2025-01-01T00_00_00.000000000Z.rcd.gz');
  });

  it('is written once: a continued chain adds none, and block streams alone have none', async () => {
    await simulate(parseOptions(['--out', out, '--files', '1', '--tps', '20', '--nodes', '5', '--continue']));
    expect(await balanceFiles(out)).toHaveLength(1);
    const blocks = mkdtempSync(path.join(tmpdir(), 'simulator-balances-blocks-'));
    try {
      await simulate(parseOptions(['--out', blocks, '--files', '1', '--tps', '20', '--format', 'block']));
      expect(existsSync(path.join(blocks, 'accountBalances'))).toBe(false);
    } finally {
      rmSync(blocks, { recursive: true, force: true });
    }
  }, 60_000);
});
