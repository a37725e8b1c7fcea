/**
 * The ledger model as JSON, the ground truth a test compares the mirror's API with. Ids are `shard.realm.num`
 * strings, 64-bit amounts are decimal strings, bytes are hex. `genesisBalance` is what an account held before
 * the first file, which the chain's genesis balance file states (write/balance-file.ts): a mirror that reads it
 * reports `balance`; one that reads the record files alone, `balance − genesisBalance`.
 */

import { hapi } from '../../proto/hapi.ts';
import { keyPb, singleKey } from '../network/keys.ts';
import { idString } from './ids.ts';
import type { Ledger, LedgerKey } from './ledger.ts';

const hex = (bytes: Uint8Array | undefined) => (bytes ? Buffer.from(bytes).toString('hex') : null);

/** A single key as its public key; a key list or contract key as its protobuf Key bytes. */
function keyJson(key: LedgerKey): { type: string; publicKey: string } {
  const single = singleKey(key);
  if (single) return { type: single.kind, publicKey: hex(single.publicKey) ?? '' };
  return { type: key.kind, publicKey: hex(hapi().Key.encode(keyPb(key)).finish()) ?? '' };
}

export interface LedgerSnapshot {
  readonly accounts: readonly {
    id: string;
    balance: string;
    genesisBalance: string;
    deleted: boolean;
    memo: string;
    evmAddress: string | null;
    ethereumNonce: string;
    /** The nonce the streams report (see `Account.reportedNonce`). */
    reportedNonce: string;
    delegationAddress: string | null;
    key: { type: string; publicKey: string } | null;
    tokens: string[];
  }[];
  readonly tokens: readonly {
    id: string;
    type: string;
    name: string;
    symbol: string;
    decimals: number;
    treasury: string;
    totalSupply: string;
  }[];
  readonly tokenBalances: readonly { account: string; token: string; balance: string }[];
  readonly nfts: readonly {
    token: string;
    serial: string;
    owner: string | null;
    deleted: boolean;
    spender: string | null;
    /** Hex. */
    metadata: string;
  }[];
  /** Remaining fungible token allowances. */
  readonly tokenAllowances: readonly { owner: string; spender: string; token: string; amount: string }[];
  /** NFT allowances for all serials of a token. */
  readonly nftApprovalsForAll: readonly { owner: string; spender: string; token: string }[];
  readonly topics: readonly { id: string; sequenceNumber: string; runningHash: string | null }[];
  readonly contracts: readonly {
    id: string;
    kind: string;
    creator: string;
    storage: Record<string, string>;
    erc20Balances: Record<string, string>;
  }[];
  /** Every contract transaction: the gas the network charged (the record's `gasUsed`) and what the EVM used. */
  readonly contractResults: readonly {
    consensusTimestamp: string;
    contract: string;
    sender: string;
    gasLimit: string;
    gasUsed: string;
    evmGasUsed: string;
    success: boolean;
  }[];
  readonly pendingAirdrops: readonly { key: string; amount: string }[];
  readonly schedules: readonly { id: string; executed: boolean }[];
  readonly exchangeRate: { hbarEquiv: number; centEquiv: number };
}

export function exportLedger(ledger: Ledger): LedgerSnapshot {
  const byNum = <T extends { num: bigint }>(items: Iterable<T>) => [...items].sort((a, b) => (a.num < b.num ? -1 : 1));
  return {
    accounts: byNum(ledger.accounts.values()).map((a) => ({
      id: idString(a.num),
      balance: String(a.balance),
      genesisBalance: String(a.genesisBalance),
      deleted: a.deleted,
      memo: a.memo,
      evmAddress: hex(a.evmAddress),
      ethereumNonce: String(a.ethereumNonce),
      reportedNonce: String(a.reportedNonce ?? 0n),
      delegationAddress: hex(a.delegation),
      key: a.key ? keyJson(a.key) : null,
      tokens: [...a.tokens].sort((x, y) => (x < y ? -1 : 1)).map(idString),
    })),
    tokens: byNum(ledger.tokens.values()).map((t) => ({
      id: idString(t.num),
      type: t.type,
      name: t.name,
      symbol: t.symbol,
      decimals: t.decimals,
      treasury: idString(t.treasury),
      totalSupply: String(t.totalSupply),
    })),
    tokenBalances: [...ledger.tokenBalances].map(([key, balance]) => {
      const [account = 0n, token = 0n] = key.split('/').map(BigInt);
      return { account: idString(account), token: idString(token), balance: String(balance) };
    }),
    nfts: [...ledger.nfts].map(([key, nft]) => {
      const [token = 0n, serial = 0n] = key.split('/').map(BigInt);
      return {
        token: idString(token),
        serial: String(serial),
        owner: nft.deleted ? null : idString(nft.owner),
        deleted: nft.deleted,
        spender: nft.spender === 0n ? null : idString(nft.spender),
        metadata: hex(nft.metadata) ?? '',
      };
    }),
    tokenAllowances: [...ledger.tokenAllowances].map(([key, amount]) => {
      const [owner = 0n, spender = 0n, token = 0n] = key.split('/').map(BigInt);
      return { owner: idString(owner), spender: idString(spender), token: idString(token), amount: String(amount) };
    }),
    nftApprovalsForAll: [...ledger.nftApprovalsForAll].map((key) => {
      const [owner = 0n, spender = 0n, token = 0n] = key.split('/').map(BigInt);
      return { owner: idString(owner), spender: idString(spender), token: idString(token) };
    }),
    topics: byNum(ledger.topics.values()).map((t) => ({
      id: idString(t.num),
      sequenceNumber: String(t.sequenceNumber),
      runningHash: t.sequenceNumber === 0n ? null : hex(t.runningHash),
    })),
    contracts: byNum(ledger.contracts.values()).map((c) => ({
      id: idString(c.num),
      kind: c.kind,
      creator: idString(c.creator),
      storage: Object.fromEntries([...c.storage].sort()),
      erc20Balances: Object.fromEntries(
        [...c.erc20Balances].map(([account, balance]) => [idString(account), String(balance)]),
      ),
    })),
    contractResults: ledger.contractResults.map((r) => ({
      consensusTimestamp: String(r.consensusNs),
      contract: idString(r.contract),
      sender: idString(r.sender),
      gasLimit: String(r.gasLimit),
      gasUsed: String(r.gasUsed),
      evmGasUsed: String(r.evmGasUsed),
      success: r.success,
    })),
    pendingAirdrops: [...ledger.pendingAirdrops].map(([key, amount]) => ({ key, amount: String(amount) })),
    schedules: byNum(ledger.schedules.values()).map((s) => ({ id: idString(s.num), executed: s.executed })),
    exchangeRate: { hbarEquiv: ledger.exchangeRate.hbarEquiv, centEquiv: ledger.exchangeRate.centEquiv },
  };
}
