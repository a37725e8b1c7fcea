/**
 * EIP-7702 end to end: the simulated network writes type 4 Ethereum transactions and calls to the accounts they
 * delegated, as records and as blocks. Ingested from the record stream and served by the Worker (with
 * `enableDelegationAddress` on), every account shows the delegation the ledger model holds, and a type 4
 * transaction's contract result shows its authorization list; derived from the block stream, the same accounts get
 * the same delegation_address.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readBlock } from '../ingest/decode/block-reader.ts';
import { decodeEthereumTransaction } from '../ingest/decode/ethereum-transaction.ts';
import { deriveBlock } from '../ingest/derive/block.ts';
import { BlockFileSource } from '../ingest/sources/block-file-source.ts';
import { DirStore } from '../ingest/sources/dir-store.ts';
import { ingestStreams } from '../test/harness/simnet-stages.ts';
import { registerWorkerSuite } from '../test/harness/worker-suite.ts';
import type { LedgerSnapshot } from './ledger/export.ts';
import { parseOptions } from './main.ts';
import { simulate } from './run.ts';
import { type Plain, readVerifiedOutput } from './testing/read-output.ts';
import { LEDGER_FILE } from './write/layout.ts';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const SUCCESS = 22;
const ZERO_ADDRESS = '00'.repeat(20);
const timestampKey = (timestamp: Plain) => `${timestamp.seconds ?? 0}.${timestamp.nanos ?? 0}`;

/** The account and the delegation (hex, '' for the zero address) a CryptoCreate or CryptoUpdate sets, if it sets one. */
function delegationChange(body: Plain, record: Plain): { account: string; address: string } | undefined {
  const update = body.cryptoUpdateAccount;
  const address: Uint8Array | undefined = (update ?? body.cryptoCreateAccount)?.delegation_address;
  if (address?.length !== 20) return undefined;
  const id = update ? update.accountIDToUpdate : record.receipt?.accountID;
  const value = hex(address) === ZERO_ADDRESS ? '' : hex(address);
  return { account: `${id?.shardNum ?? 0}.${id?.realmNum ?? 0}.${id?.accountNum ?? 0}`, address: value };
}

describe('EIP-7702 delegations, simulated, ingested and served', () => {
  let out: string;
  let ledger: LedgerSnapshot;
  /** Type 4 transactions: their Ethereum hash and the authorizations' addresses signed in them. */
  const type4: { hash: string; addresses: string[] }[] = [];
  /** Accounts whose entity_history holds an earlier delegation_address than their current one. */
  let redelegated: string[] = [];
  /** delegation_address by account num as the block stream's derivation leaves it (the last change wins). */
  const fromBlocks = new Map<bigint, string | null>();
  /**
   * The delegation each account's records leave it as the importer reads them ('' for none): the last change a
   * successful CryptoCreate or CryptoUpdate made, a child counting only when its parent succeeded
   * (RecordItem.parseSuccess). The ledger model, as EIP-7702 does, keeps an authorization of a reverted type 4 call;
   * the mirror does not, so the accounts it touched are in `dropped`.
   */
  const mirrored = new Map<string, string>();
  const dropped = new Set<string>();

  beforeAll(async () => {
    out = mkdtempSync(path.join(tmpdir(), 'simulator-delegation-'));
    await simulate({
      ...parseOptions(['--out', out, '--files', '4', '--tps', '60', '--seed', 'eip7702', '--format', 'both']),
      // Contracts calling HTS need a file's first transaction and give this test nothing to read.
      weights: { ethereumTransaction: 400, deployContract: 12, htsCall: 0 },
    });
    ledger = JSON.parse(readFileSync(path.join(out, LEDGER_FILE), 'utf8')) as LedgerSnapshot;
    // A child's parent is the item of its transaction id with nonce 0, as the importer's parseParent finds it.
    const parentStatus = new Map<string, number>();
    for (const file of readVerifiedOutput(out)) {
      for (const { body, record, status } of file.items) {
        const { transactionID } = body;
        const id = `${transactionID?.accountID?.accountNum}-${timestampKey(transactionID?.transactionValidStart ?? {})}`;
        const child = (transactionID?.nonce ?? 0) > 0;
        if (!child) parentStatus.set(id, status);
        const change = delegationChange(body, record);
        if (change) {
          const applied = status === SUCCESS && (!child || parentStatus.get(id) === SUCCESS);
          if (applied) mirrored.set(change.account, change.address);
          else if (status === SUCCESS) dropped.add(change.account);
        }
        const data = body.ethereumTransaction?.ethereum_data;
        const tx = data ? decodeEthereumTransaction(data) : undefined;
        if (tx?.type !== 4) continue;
        type4.push({
          hash: `0x${hex(record.ethereum_hash)}`,
          addresses: (tx.authorizationList ?? []).map(
            (entry) => `0x${hex((entry as Uint8Array[])[1] ?? new Uint8Array())}`,
          ),
        });
      }
    }
    const blocks = new BlockFileSource(new DirStore(out));
    for await (const sourced of blocks.blocks((await blocks.earliest()) ?? 0n, { untilIdle: true })) {
      const derived = deriveBlock(readBlock(`block ${sourced.number}`, sourced.items, sourced.size), 0n);
      for (const change of derived.rows.changes.get('entity') ?? []) {
        const address = change.row.delegation_address as Uint8Array | null | undefined;
        if (address !== undefined) fromBlocks.set(change.row.id as bigint, address && hex(address));
      }
    }
  }, 300_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  const { worker } = registerWorkerSuite({
    seed: async (db) => {
      await ingestStreams(out, db.url);
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const history = await client.query<{ id: string }>(
          `select distinct h.id::text as id from entity_history h join entity e using (id)
            where h.delegation_address is not null and h.delegation_address <> e.delegation_address`,
        );
        redelegated = history.rows.map((r) => r.id);
      } finally {
        await client.end();
      }
    },
    timeout: 300_000,
  });

  const delegated = () => ledger.accounts.filter((a) => a.delegationAddress);

  it('shows every account its delegation address, and none where the setting is off', async () => {
    expect(delegated().length).toBeGreaterThan(3);
    await worker.setState({ config: { response: { enableDelegationAddress: true } } });
    expect(dropped.size).toBeLessThan(delegated().length);
    for (const account of ledger.accounts.filter((a) => a.evmAddress)) {
      const response = await worker.get(`/api/v1/accounts/${account.id}`);
      const expected = `0x${mirrored.get(account.id) ?? ''}`;
      expect(`${account.id} ${response.body.delegation_address}`).toBe(`${account.id} ${expected}`);
      if (!dropped.has(account.id)) expect(expected).toBe(`0x${account.delegationAddress ?? ''}`);
    }
    await worker.setState({});
    const off = await worker.get(`/api/v1/accounts/${delegated()[0]?.id}`);
    expect(off.body).not.toHaveProperty('delegation_address');
  });

  it('keeps a replaced delegation in entity_history', () => {
    expect(redelegated.length).toBeGreaterThan(0);
  });

  it('derives the same delegation addresses from the block stream', () => {
    for (const account of delegated()) {
      const num = BigInt(account.id.split('.')[2] ?? 0);
      const expected = mirrored.get(account.id) || (dropped.has(account.id) ? undefined : null);
      expect(`${account.id} ${fromBlocks.get(num)}`).toBe(`${account.id} ${expected}`);
    }
  });

  it('shows a type 4 transaction its authorization list', async () => {
    expect(type4.length).toBeGreaterThan(3);
    await worker.setState({ config: { response: { enableDelegationAddress: true } } });
    for (const { hash, addresses } of type4) {
      const response = await worker.get(`/api/v1/contracts/results/${hash}`);
      expect(response.status).toBe(200);
      expect(response.body.type).toBe(4);
      const list = response.body.authorization_list as { address: string; nonce: number; y_parity: number }[];
      expect(list.map((a) => a.address)).toEqual(addresses);
      for (const item of list) {
        expect(typeof item.nonce).toBe('number');
        expect([0, 1]).toContain(item.y_parity);
      }
    }
    await worker.setState({});
  });
});
