/**
 * Account balance files as nodes exported them once they wrote protobuf (`<instant>_Balances.pb.gz`): gzip of an
 * `AllAccountBalances` — the consensus time, then every account (ascending) with its hbar balance and its token
 * balances (ascending by token) — and per node a gzipped signature file in the v2 layout (byte 4, the 48-byte
 * SHA-384 of the uncompressed protobuf, byte 3, int32 length, SHA384withRSA over that hash), `…_Balances.pb_sig.gz`.
 * The data file lands in every node's folder before any signature file, each through a rename.
 */
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { balanceFileStem } from '../../ingest/decode/stream-file-name.ts';
import { hapi } from '../../proto/hapi.ts';
import { sha384 } from '../hash.ts';
import { accountPb, i64, timestampPb, tokenPb } from '../ledger/ids.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { balanceDirectory } from './layout.ts';
import { type SimNode, signHash } from './node-keys.ts';
import { placeCopy, writeAtomically } from './record-stream.ts';

/** Every account's hbar balance and every token relationship's balance at one moment of the ledger. */
export interface LedgerBalances {
  readonly hbar: ReadonlyMap<bigint, bigint>;
  /** Account → token → balance. */
  readonly tokens: ReadonlyMap<bigint, ReadonlyMap<bigint, bigint>>;
}

/** The model's balances now: live accounts and contracts, and each association's balance. */
export function ledgerBalances(ledger: Ledger): LedgerBalances {
  const hbar = new Map<bigint, bigint>();
  for (const account of ledger.accounts.values()) if (!account.deleted) hbar.set(account.num, account.balance);
  for (const contract of ledger.contracts.values()) hbar.set(contract.num, contract.balance);
  const tokens = new Map<bigint, Map<bigint, bigint>>();
  for (const [key, balance] of ledger.tokenBalances) {
    const [account = 0n, token = 0n] = key.split('/').map(BigInt);
    const held = tokens.get(account) ?? new Map<bigint, bigint>();
    held.set(token, balance);
    tokens.set(account, held);
  }
  return { hbar, tokens };
}

const ascending = (a: bigint, b: bigint) => (a < b ? -1 : a > b ? 1 : 0);

export function buildBalanceFile(
  consensusNs: bigint,
  balances: LedgerBalances,
): { bytes: Uint8Array; hash: Uint8Array } {
  const accounts = [...new Set([...balances.hbar.keys(), ...balances.tokens.keys()])].sort(ascending);
  const bytes = hapi()
    .AllAccountBalances.encode({
      consensusTimestamp: timestampPb(consensusNs),
      allAccounts: accounts.map((num) => {
        const held = balances.tokens.get(num) ?? new Map<bigint, bigint>();
        return {
          accountID: accountPb(num),
          hbarBalance: i64(balances.hbar.get(num) ?? 0n),
          tokenUnitBalances: [...held.keys()]
            .sort(ascending)
            .map((token) => ({ tokenId: tokenPb(token), balance: i64(held.get(token) ?? 0n) })),
        };
      }),
    })
    .finish();
  return { bytes, hash: sha384(bytes) };
}

export function buildBalanceSignature(node: SimNode, hash: Uint8Array): Uint8Array {
  const signature = signHash(node, hash);
  const out = new Uint8Array(1 + hash.length + 1 + 4 + signature.length);
  out[0] = 4;
  out.set(hash, 1);
  out[1 + hash.length] = 3;
  new DataView(out.buffer).setInt32(2 + hash.length, signature.length);
  out.set(signature, 6 + hash.length);
  return new Uint8Array(gzipSync(out));
}

/** Writes the balance file of `consensusNs` into every node's folder; returns its name. */
export function writeBalanceFile(
  out: string,
  nodes: readonly SimNode[],
  consensusNs: bigint,
  balances: LedgerBalances,
): string {
  const { bytes, hash } = buildBalanceFile(consensusNs, balances);
  const data = new Uint8Array(gzipSync(bytes));
  const stem = balanceFileStem(consensusNs);
  const name = `${stem}.pb.gz`;
  const folders = nodes.map((node) => balanceDirectory(out, node.accountNum));
  const [first] = folders;
  if (!first) throw new Error('no nodes');
  writeAtomically(path.join(first, name), data);
  for (const folder of folders.slice(1)) placeCopy(path.join(first, name), path.join(folder, name), data);
  nodes.forEach((node, i) => {
    writeAtomically(path.join(folders[i] as string, `${stem}.pb_sig.gz`), buildBalanceSignature(node, hash));
  });
  return name;
}
