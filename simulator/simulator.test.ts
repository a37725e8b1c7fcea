import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import protobuf from 'protobufjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECORDSTREAMS } from '../ingest/testing/fixtures.ts';
import { sha384 } from './hash.ts';
import type { LedgerSnapshot } from './ledger/export.ts';
import { FIRST_USER_ENTITY } from './ledger/ids.ts';
import { parseOptions } from './main.ts';
import { simulate } from './run.ts';
import { rootOf } from './testing/read-blocks.ts';
import { nodeFolders, readVerifiedOutput, type VerifiedFile } from './testing/read-output.ts';
import { replay } from './testing/replay.ts';
import { blockFilePath, LEDGER_FILE } from './write/layout.ts';

const FIXTURES = path.join(RECORDSTREAMS, 'v6/record0.0.3');
const run = (out: string, seed = 'simulator-test') =>
  simulate({ ...parseOptions(['--out', out, '--files', '8', '--tps', '60', '--seed', seed]), onFile: () => {} });

let out: string;
let files: VerifiedFile[];
let ledger: LedgerSnapshot;

beforeAll(async () => {
  out = mkdtempSync(path.join(tmpdir(), 'simulator-'));
  await run(out);
  files = readVerifiedOutput(out);
  ledger = JSON.parse(readFileSync(path.join(out, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
}, 120_000);

afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Top-level protobuf field numbers in wire order. */
function fieldOrder(bytes: Uint8Array): number[] {
  const reader = protobuf.Reader.create(bytes);
  const fields: number[] = [];
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    if (fields.at(-1) !== tag >>> 3) fields.push(tag >>> 3);
    reader.skipType(tag & 7);
  }
  return fields;
}

describe('simulated record streams', () => {
  it('writes files every node signs, that pass the ingest consensus check and chain from one to the next', () => {
    // the genesis file, then the eight of traffic
    expect(files).toHaveLength(9);
    expect(nodeFolders(out)).toEqual(['record0.0.3', 'record0.0.4', 'record0.0.5', 'record0.0.6']);
    for (const [index, file] of files.entries()) {
      expect(file.signers).toHaveLength(4);
      expect(file.parsed.version).toBe(6);
      expect(file.parsed.blockNumber).toBe(BigInt(index));
    }
    expect(files[0]?.parsed.previousHash.every((b) => b === 0)).toBe(true);
  });

  it('puts the transactions of one 2-second period in each file, in consensus order', () => {
    const timestamps = files.flatMap((f) =>
      f.items.map(
        (i) => BigInt(i.record.consensusTimestamp.seconds) * 10n ** 9n + BigInt(i.record.consensusTimestamp.nanos ?? 0),
      ),
    );
    expect([...timestamps].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(timestamps);
    expect(new Set(timestamps).size).toBe(timestamps.length);
    expect(files[1]?.name).toMatch(/^2025-01-01T00_00_0\d\.\d{9}Z\.rcd\.gz$/);
    const total = files.reduce((n, f) => n + f.items.length, 0);
    expect(total).toBeGreaterThan(8 * 2 * 60 * 0.7);
  });

  it('opens the chain with the genesis file: the fee schedule and exchange rate files, as the node creates them', () => {
    const genesis = files[0];
    expect(genesis?.name).toBe('2024-12-31T23_59_58.000000000Z.rcd.gz');
    expect(
      genesis?.items.map((item) => [
        `0.0.${item.record.transactionID?.accountID?.accountNum}`,
        item.record.transactionID?.nonce,
        Object.keys(item.body).at(-1),
        item.record.receipt?.fileID?.fileNum,
        item.record.transactionFee ?? null,
      ]),
    ).toEqual([
      ['0.0.50', 1, 'fileCreate', '111', null],
      ['0.0.50', 2, 'fileCreate', '112', null],
    ]);
    expect(genesis?.items.every((item) => item.status === 22 && item.body.nodeAccountID === undefined)).toBe(true);
  });

  it('records hashes of the signed transaction bytes and transfer lists that sum to zero', () => {
    for (const item of files.flatMap((f) => f.items)) {
      expect(Buffer.from(item.record.transactionHash)).toEqual(Buffer.from(sha384(item.signedTransactionBytes)));
      const sum = (item.record.transferList?.accountAmounts ?? []).reduce(
        (n: bigint, a: { amount: string }) => n + BigInt(a.amount),
        0n,
      );
      expect(sum).toBe(0n);
    }
  });

  it('covers the transaction families of a realistic mix, with some failures', () => {
    const kinds = new Set(
      files.flatMap((f) =>
        f.items.map((i) =>
          Object.keys(i.body).find(
            (k) =>
              k.length > 0 &&
              !['transactionID', 'nodeAccountID', 'transactionFee', 'transactionValidDuration', 'memo'].includes(k),
          ),
        ),
      ),
    );
    for (const kind of [
      'cryptoTransfer',
      'cryptoCreateAccount',
      'tokenCreation',
      'tokenMint',
      'tokenAssociate',
      'consensusCreateTopic',
      'consensusSubmitMessage',
      'scheduleCreate',
      'fileUpdate',
      'contractCreateInstance',
      'contractCall',
      'tokenAirdrop',
      'cryptoApproveAllowance',
    ]) {
      expect(kinds).toContain(kind);
    }
    const statuses = new Set(files.flatMap((f) => f.items.map((i) => i.status)));
    expect(statuses).toContain(22);
    expect(statuses.size).toBeGreaterThan(1);
  });

  it('names each deployed contract in its memo: SimToken, Counter or HtsCaller, then any memo words', () => {
    const memos = files.flatMap((f) =>
      f.items.flatMap((i) => {
        const create = i.body.contractCreateInstance as { memo?: string } | undefined;
        return create ? [create.memo ?? ''] : [];
      }),
    );
    expect(memos.length).toBeGreaterThan(0);
    for (const memo of memos) expect(memo).toMatch(/^(SimToken|Counter|HtsCaller)(: [a-z ]+)?$/);
  });

  it('has the structure of the real v6 fixtures: field order, signature size, sidecar layout', () => {
    const fixture = gunzipSync(readFileSync(path.join(FIXTURES, '2022-07-13T08_46_11.304284003Z.rcd.gz')));
    const first = readdirSync(path.join(out, 'recordstreams', 'record0.0.3'));
    const withSidecar = files.find((f, i) => i > 0 && f.parsed.sidecars.length > 0);
    expect(withSidecar).toBeDefined();
    const ours = gunzipSync(readFileSync(path.join(out, 'recordstreams', 'record0.0.3', withSidecar?.name ?? '')));
    expect(ours.readInt32BE(0)).toBe(fixture.readInt32BE(0));
    expect(fieldOrder(ours.subarray(4))).toEqual(fieldOrder(fixture.subarray(4)));
    const fixtureSig = statSync(path.join(FIXTURES, '2022-07-13T08_46_11.304284003Z.rcd_sig')).size;
    const ourSig = statSync(
      path.join(out, 'recordstreams', 'record0.0.3', withSidecar?.name.replace('.rcd.gz', '.rcd_sig') ?? ''),
    ).size;
    expect(ourSig).toBe(fixtureSig);
    expect(first).toContain('sidecar');
    const contractItem = withSidecar?.items.find((i) => i.record.contractCallResult || i.record.contractCreateResult);
    expect(fieldOrder(contractItem?.transactionBytes ?? new Uint8Array())).toEqual([1 + 4]);
    expect(withSidecar?.sidecarRecords.some((r) => r.state_changes)).toBe(true);
    expect(withSidecar?.sidecarRecords.some((r) => r.actions)).toBe(true);
  });

  it('is deterministic for a seed', async () => {
    const again = mkdtempSync(path.join(tmpdir(), 'simulator-again-'));
    try {
      await run(again);
      const name = files[3]?.name ?? '';
      const a = readFileSync(path.join(out, 'recordstreams', 'record0.0.4', name));
      const b = readFileSync(path.join(again, 'recordstreams', 'record0.0.4', name));
      expect(Buffer.compare(a, b)).toBe(0);
      expect(readFileSync(path.join(again, LEDGER_FILE), 'utf8')).toBe(
        readFileSync(path.join(out, LEDGER_FILE), 'utf8'),
      );
    } finally {
      rmSync(again, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('live mode', () => {
  it('writes each file once its period has passed on the wall clock', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'simulator-live-'));
    try {
      const written: number[] = [];
      const started = Date.now();
      await simulate({
        ...parseOptions(['--out', dir, '--live', '--files', '3', '--tps', '20']),
        periodMs: 300,
        onFile: () => written.push(Date.now() - started),
      });
      // the genesis file at once (its period is the one before the traffic starts), then a file a period
      expect(written).toHaveLength(4);
      for (const [i, elapsed] of written.slice(1).entries()) expect(elapsed).toBeGreaterThanOrEqual((i + 1) * 300 - 5);
      expect(readVerifiedOutput(dir)).toHaveLength(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('continuing an earlier run', () => {
  it('extends the same record and block chains, and refuses to mix runs without --continue', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'simulator-continue-'));
    try {
      const args = ['--out', dir, '--files', '2', '--tps', '30', '--format', 'both'];
      await simulate(parseOptions(args));
      await expect(simulate(parseOptions(args))).rejects.toThrow(/--continue/);
      await simulate(parseOptions([...args, '--continue', '--seed', 'second']));
      const chained = readVerifiedOutput(dir);
      expect(chained.map((f) => f.parsed.blockNumber)).toEqual([0n, 1n, 2n, 3n, 4n]);
      let previous: Uint8Array = new Uint8Array(48);
      for (let number = 0n; number < 5n; number++) {
        const { root, footer } = rootOf(blockFilePath(dir, number));
        expect(Buffer.from(footer[0] ?? []).toString('hex')).toBe(Buffer.from(previous).toString('hex'));
        previous = root;
      }
      const created = chained
        .flatMap((f) => f.items.map((i) => i.record.receipt?.accountID?.accountNum))
        .filter(Boolean);
      expect(new Set(created).size).toBe(created.length);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('continuing from the saved model', () => {
  it('keeps the earlier entities, draws no key twice, and gives the same bytes from the same files', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'simulator-resume-'));
    const copy = `${dir}-copy`;
    try {
      const args = ['--out', dir, '--files', '3', '--tps', '60', '--seed', 'resume'];
      await simulate(parseOptions(args));
      const before = JSON.parse(readFileSync(path.join(dir, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
      cpSync(dir, copy, { recursive: true });
      await simulate(parseOptions([...args, '--continue']));
      await simulate(parseOptions([...args, '--out', copy, '--continue']));
      const after = JSON.parse(readFileSync(path.join(dir, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
      expect(readFileSync(path.join(copy, LEDGER_FILE), 'utf8')).toBe(
        readFileSync(path.join(dir, LEDGER_FILE), 'utf8'),
      );
      const names = readdirSync(path.join(dir, 'recordstreams', 'record0.0.3')).filter((n) => n.endsWith('.rcd.gz'));
      // the genesis file and three of traffic, then three more
      expect(names).toHaveLength(7);
      for (const name of names) {
        const file = (root: string) => readFileSync(path.join(root, 'recordstreams', 'record0.0.3', name));
        expect(Buffer.compare(file(dir), file(copy)), name).toBe(0);
      }
      for (const account of before.accounts) {
        expect(after.accounts.find((a) => a.id === account.id)?.key).toEqual(account.key);
      }
      expect(after.accounts.length).toBeGreaterThan(before.accounts.length);
      // The network's own accounts share the genesis key; every account drawn since has a key of its own.
      const drawn = after.accounts.filter((a) => BigInt(a.id.split('.')[2] ?? 0) >= FIRST_USER_ENTITY);
      const keys = drawn.flatMap((a) => (a.key ? [a.key.publicKey] : []));
      expect(new Set(keys).size).toBe(keys.length);
      const payers = readVerifiedOutput(dir)
        .slice(4)
        .flatMap((f) => f.items.map((i) => `0.0.${i.record.transactionID?.accountID?.accountNum}`));
      expect(payers.some((payer) => before.accounts.some((a) => a.id === payer && payer !== '0.0.2'))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
      rmSync(copy, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the exported ledger model', () => {
  it('equals what the streams say: hbar balances, token balances, NFT owners, topic messages, contract storage', () => {
    const state = replay(files);
    for (const account of ledger.accounts) {
      const streamed = state.hbar.get(account.id) ?? 0n;
      expect(`${account.id} ${streamed}`).toBe(
        `${account.id} ${BigInt(account.balance) - BigInt(account.genesisBalance)}`,
      );
    }
    expect([...state.hbar.keys()].every((id) => ledger.accounts.some((a) => a.id === id))).toBe(true);
    for (const { account, token, balance } of ledger.tokenBalances) {
      expect(`${account}/${token} ${state.tokenBalances.get(`${account}/${token}`) ?? 0n}`).toBe(
        `${account}/${token} ${balance}`,
      );
    }
    for (const nft of ledger.nfts) expect(state.nftOwners.get(`${nft.token}/${nft.serial}`)).toBe(nft.owner);
    for (const topic of ledger.topics)
      expect(state.topicMessages.get(topic.id) ?? 0n).toBe(BigInt(topic.sequenceNumber));
    for (const contract of ledger.contracts) {
      expect(Object.fromEntries(state.storage.get(contract.id) ?? [])).toEqual(contract.storage);
    }
    expect(ledger.nfts.length).toBeGreaterThan(0);
    expect(ledger.contracts.length).toBeGreaterThanOrEqual(2);
  });
});
