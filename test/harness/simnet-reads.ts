/**
 * The reads a test makes of a simulated ledger through POST /api/v1/contracts/call, each with the answer its model
 * gives: every view function of every SimToken and Counter contract (from the contract's storage and ERC-20
 * balances), and the ERC-20 / ERC-721 reads of every HTS token through its redirect (from the token, balance, NFT
 * and allowance lists). Addresses that ever appear in any stage are asked about at every stage where their account
 * exists, so a value that changed or vanished between blocks is caught too.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { LedgerSnapshot } from '../../simulator/ledger/export.ts';

export interface ModelRead {
  /** What is asked, for a failure message: `SimToken 0.0.1020 balanceOf(0.0.1003)`. */
  readonly label: string;
  readonly to: string;
  readonly data: string;
  /** The `result` the model implies, `0x` and hex. */
  readonly result: string;
}

type Account = LedgerSnapshot['accounts'][number];

const hexOf = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
export const longZero = (id: string) =>
  `0x${BigInt(id.split('.')[2] ?? '0')
    .toString(16)
    .padStart(40, '0')}`;
const selector = (signature: string) => hexOf(keccak_256(new TextEncoder().encode(signature)).subarray(0, 4));
const uintWord = (value: bigint) => value.toString(16).padStart(64, '0');
const addressWordOf = (address: string) => address.slice(2).padStart(64, '0');
const stringResult = (text: string) => {
  const bytes = hexOf(new TextEncoder().encode(text));
  return `0x${uintWord(32n)}${uintWord(BigInt(bytes.length / 2))}${bytes.padEnd(Math.ceil(bytes.length / 64) * 64, '0')}`;
};

/** The address an account shows to the EVM: its EVM address when it has one, else its long-zero address. */
export const canonicalAddress = (account: Account) =>
  account.evmAddress ? `0x${account.evmAddress}` : longZero(account.id);

/** Solidity's slot of `mapping[key]` at `slot`, and its trimmed hex as the model's storage keys it. */
const mappingSlot = (keyWord: string, slotWord: string) =>
  hexOf(keccak_256(Buffer.from(keyWord + slotWord, 'hex'))).padStart(64, '0');
const trimmedKey = (slotWord: string) => slotWord.replace(/^0+/, '');

/** A Solidity `string` kept in one slot (under 32 bytes): the bytes left-aligned, twice the length in the last byte. */
function shortString(value: string | undefined): string {
  const padded = (value ?? '').padStart(64, '0');
  const length = Number.parseInt(padded.slice(62), 16) / 2;
  return Buffer.from(padded.slice(0, length * 2), 'hex').toString('utf8');
}

const call = (label: string, to: string, signature: string, args: string[], result: string): ModelRead => ({
  label,
  to,
  data: `0x${selector(signature)}${args.join('')}`,
  result,
});

/** What any stage has: accounts, and token allowances and approvals for all (absent at a stage: 0 and false). */
interface Everything {
  readonly accounts: readonly Account[];
  readonly allowances: readonly LedgerSnapshot['tokenAllowances'][number][];
  readonly approvals: readonly LedgerSnapshot['nftApprovalsForAll'][number][];
}

const unionOf = <T>(items: readonly T[], key: (item: T) => string): T[] => [
  ...new Map(items.map((item) => [key(item), item])).values(),
];

/**
 * The reads of one stage's model, `all` being every stage's: what any stage has is asked about at every stage whose
 * accounts include those involved (created by its end).
 */
export function modelReads(model: LedgerSnapshot, all: readonly LedgerSnapshot[]): ModelRead[] {
  const present = new Set(model.accounts.map((a) => a.id));
  const pair = (a: { owner: string; spender: string; token: string }) => `${a.owner}/${a.spender}/${a.token}`;
  const everything: Everything = {
    accounts: unionOf(
      all.flatMap((m) => m.accounts),
      (a) => a.id,
    ).filter((a) => present.has(a.id)),
    allowances: unionOf(
      all.flatMap((m) => m.tokenAllowances),
      pair,
    ),
    approvals: unionOf(
      all.flatMap((m) => m.nftApprovalsForAll),
      pair,
    ),
  };
  const reads: ModelRead[] = [];
  for (const contract of model.contracts) reads.push(...contractReads(contract, everything.accounts));
  for (const token of model.tokens) reads.push(...tokenReads(model, token, everything));
  return reads;
}

function contractReads(contract: LedgerSnapshot['contracts'][number], accounts: readonly Account[]): ModelRead[] {
  const to = longZero(contract.id);
  const label = `${contract.kind} ${contract.id}`;
  const slot = (key: string) => `0x${(contract.storage[key] ?? '').padStart(64, '0')}`;
  const reads: ModelRead[] = [];
  // An HtsCaller has no views: it forwards whatever it is called with to 0x167 (simnet-hts-calls.test.ts replays it).
  if (contract.kind === 'HtsCaller') return reads;
  if (contract.kind === 'Counter') {
    reads.push(call(`${label} count()`, to, 'count()', [], slot('')));
    for (const account of accounts) {
      const key = trimmedKey(mappingSlot(addressWordOf(canonicalAddress(account)), uintWord(1n)));
      if (contract.storage[key] === undefined) continue;
      reads.push(
        call(
          `${label} countedBy(${account.id})`,
          to,
          'countedBy(address)',
          [addressWordOf(canonicalAddress(account))],
          slot(key),
        ),
      );
    }
    return reads;
  }
  reads.push(call(`${label} name()`, to, 'name()', [], stringResult(shortString(contract.storage['']))));
  reads.push(call(`${label} symbol()`, to, 'symbol()', [], stringResult(shortString(contract.storage['01']))));
  reads.push(call(`${label} decimals()`, to, 'decimals()', [], `0x${uintWord(6n)}`));
  reads.push(call(`${label} totalSupply()`, to, 'totalSupply()', [], slot('02')));
  for (const account of accounts) {
    const holder = addressWordOf(canonicalAddress(account));
    const balance = BigInt(contract.erc20Balances[account.id] ?? '0');
    reads.push(call(`${label} balanceOf(${account.id})`, to, 'balanceOf(address)', [holder], `0x${uintWord(balance)}`));
    const ownerSlot = mappingSlot(holder, uintWord(4n));
    for (const spender of accounts) {
      const key = trimmedKey(mappingSlot(addressWordOf(canonicalAddress(spender)), ownerSlot));
      if (contract.storage[key] === undefined) continue;
      const args = [holder, addressWordOf(canonicalAddress(spender))];
      reads.push(
        call(`${label} allowance(${account.id},${spender.id})`, to, 'allowance(address,address)', args, slot(key)),
      );
    }
  }
  return reads;
}

function tokenReads(
  model: LedgerSnapshot,
  token: LedgerSnapshot['tokens'][number],
  everything: Everything,
): ModelRead[] {
  const { accounts } = everything;
  const to = longZero(token.id);
  const label = `${token.type} ${token.id}`;
  const fungible = token.type === 'FUNGIBLE_COMMON';
  const byId = new Map(accounts.map((a) => [a.id, a]));
  const addressOf = (id: string | null) => {
    const account = id === null ? undefined : byId.get(id);
    return account ? canonicalAddress(account) : `0x${'0'.repeat(40)}`;
  };
  const reads: ModelRead[] = [
    call(`${label} name()`, to, 'name()', [], stringResult(token.name)),
    call(`${label} symbol()`, to, 'symbol()', [], stringResult(token.symbol)),
    call(`${label} totalSupply()`, to, 'totalSupply()', [], `0x${uintWord(BigInt(token.totalSupply))}`),
  ];
  if (fungible) reads.push(call(`${label} decimals()`, to, 'decimals()', [], `0x${uintWord(BigInt(token.decimals))}`));
  const nfts = model.nfts.filter((n) => n.token === token.id && !n.deleted);
  const associated = model.tokenBalances.filter((b) => b.token === token.id && byId.has(b.account));
  for (const { account, balance } of associated) {
    const held = fungible ? BigInt(balance) : BigInt(nfts.filter((n) => n.owner === account).length);
    const args = [addressWordOf(addressOf(account))];
    reads.push(call(`${label} balanceOf(${account})`, to, 'balanceOf(address)', args, `0x${uintWord(held)}`));
  }
  const pair = (a: { owner: string; spender: string }) => `${a.owner}/${a.spender}`;
  const amounts = new Map(model.tokenAllowances.filter((a) => a.token === token.id).map((a) => [pair(a), a.amount]));
  for (const allowance of everything.allowances.filter((a) => a.token === token.id)) {
    if (!byId.has(allowance.owner) || !byId.has(allowance.spender)) continue;
    const args = [addressWordOf(addressOf(allowance.owner)), addressWordOf(addressOf(allowance.spender))];
    const result = `0x${uintWord(BigInt(amounts.get(pair(allowance)) ?? '0'))}`;
    reads.push(
      call(
        `${label} allowance(${allowance.owner},${allowance.spender})`,
        to,
        'allowance(address,address)',
        args,
        result,
      ),
    );
  }
  const approved = new Set(model.nftApprovalsForAll.filter((a) => a.token === token.id).map(pair));
  for (const approval of everything.approvals.filter((a) => a.token === token.id)) {
    if (!byId.has(approval.owner) || !byId.has(approval.spender)) continue;
    const args = [addressWordOf(addressOf(approval.owner)), addressWordOf(addressOf(approval.spender))];
    const result = `0x${uintWord(approved.has(pair(approval)) ? 1n : 0n)}`;
    reads.push(
      call(
        `${label} isApprovedForAll(${approval.owner},${approval.spender})`,
        to,
        'isApprovedForAll(address,address)',
        args,
        result,
      ),
    );
  }
  for (const nft of nfts) {
    const serial = [uintWord(BigInt(nft.serial))];
    const name = `${label}/${nft.serial}`;
    reads.push(call(`${name} ownerOf`, to, 'ownerOf(uint256)', serial, `0x${addressWordOf(addressOf(nft.owner))}`));
    reads.push(
      call(`${name} getApproved`, to, 'getApproved(uint256)', serial, `0x${addressWordOf(addressOf(nft.spender))}`),
    );
    const uri = Buffer.from(nft.metadata, 'hex').toString('utf8');
    reads.push(call(`${name} tokenURI`, to, 'tokenURI(uint256)', serial, stringResult(uri)));
  }
  return reads;
}
