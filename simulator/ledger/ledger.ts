/**
 * The ledger model: the state the simulated network is in after every transaction it wrote. Generators read it
 * to build only transactions that make sense (a payer that can pay, a receiver associated with the token) and
 * apply each outcome to it, so after a run it is the ground truth a mirror must reproduce from the streams.
 *
 * Invariant: the sum of all hbar balances never changes (fees move hbar, they do not burn it), and every
 * change to a balance here appears as an entry of some record's transfer list.
 */

import {
  FEE_COLLECTOR,
  FIRST_USER_ENTITY,
  longZeroAddress,
  NODE_REWARD_ACCOUNT,
  nodeAccount,
  numOfLongZero,
  STAKING_REWARD_ACCOUNT,
  TREASURY,
} from './ids.ts';
import { Pool } from './pool.ts';

/** All hbar of the simulated network, in tinybars (50 billion hbar), held by the treasury at genesis. */
export const TOTAL_SUPPLY_TINYBARS = 5_000_000_000_000_000_000n;

export type KeyKind = 'ed25519' | 'secp256k1';

export interface SimKey {
  readonly kind: KeyKind;
  /** 32-byte ed25519 or 33-byte compressed secp256k1 public key. */
  readonly publicKey: Uint8Array;
  /** secp256k1 only: the EVM address the key implies. */
  readonly evmAddress?: Uint8Array;
  /** secp256k1 only: the private key, which signs the account's Ethereum transactions (test keys, never real). */
  readonly privateKey?: Uint8Array;
}

/** A key list (all must sign) or, with `threshold`, a threshold key, as HAPI's Key nests them. */
export interface KeyList {
  readonly kind: 'list';
  readonly keys: readonly LedgerKey[];
  readonly threshold?: number;
}

/** A contract's id as a key: satisfied only inside that contract's own execution, never by a signature. */
export interface ContractKey {
  readonly kind: 'contract' | 'delegatableContract';
  readonly contract: bigint;
}

/** Any key an entity can have: the generated load uses single keys; transactions submitted to a node may nest them. */
export type LedgerKey = SimKey | KeyList | ContractKey;

/** Fields a real network keeps for an entity that the generated load never reads (set by submitted transactions). */
export interface Lifetime {
  /** Consensus instant after which the entity expires. */
  expirationNs?: bigint;
  autoRenewSeconds?: bigint;
  autoRenewAccount?: bigint;
}

export interface Account extends Lifetime {
  readonly num: bigint;
  balance: bigint;
  /** Balance before the first file: the genesis balance file states it, the record files never do. */
  readonly genesisBalance: bigint;
  key: LedgerKey | undefined;
  receiverSigRequired?: boolean;
  declineReward?: boolean;
  stakedAccountId?: bigint;
  memo: string;
  deleted: boolean;
  /** 20-byte EVM address derived from an ECDSA key (an alias), when the account has one. */
  readonly evmAddress: Uint8Array | undefined;
  /** A key alias (a serialized protobuf Key) a transfer created the account under (HIP-32). */
  readonly keyAlias?: Uint8Array;
  maxAutoAssociations: number;
  /** Token numbers this account is associated with. */
  readonly tokens: Set<bigint>;
  /** The node this account stakes to, if any. */
  stakedNodeId?: number;
  /** The staking period in which its balance last changed (rewards are paid once per period). */
  lastRewardPeriod?: bigint;
  /** Ethereum transactions it has signed and EIP-7702 authorizations applied for it (the next one's nonce). */
  ethereumNonce: bigint;
  /**
   * The `signer_nonce` the record of its last Ethereum transaction reported: authorizations applied since then
   * moved `ethereumNonce` on, and no record reports that (what a mirror reading the streams shows).
   */
  reportedNonce?: bigint;
  /** HIP-1340: the contract whose code runs when this account is called, once an authorization set one. */
  delegation?: Uint8Array;
  /** Storage written by the delegate's code running as this account (slot and value hex, as a contract's). */
  delegatedStorage?: Map<string, string>;
}

/** A fixed fee: `amount` tinybars, or units of the fungible token `denomination`. */
export interface FixedFee {
  readonly amount: bigint;
  readonly denomination?: bigint;
}

/** A share of each transfer of the token, within `min`..`max` units (`max` 0: no cap). */
export interface FractionalFee {
  readonly numerator: bigint;
  readonly denominator: bigint;
  readonly min: bigint;
  readonly max: bigint;
  /** The sender pays the fee on top of what it sends, instead of the receiver getting less. */
  readonly netOfTransfers: boolean;
}

/** A share of the value exchanged for an NFT, or `fallback` from the receiver when nothing fungible was exchanged. */
export interface RoyaltyFee {
  readonly numerator: bigint;
  readonly denominator: bigint;
  readonly fallback?: FixedFee;
}

/** One entry of a token's (or, fixed only, a topic's) custom fee schedule (HIP-18, HIP-991). */
export interface CustomFee {
  readonly collector: bigint;
  /** Every collector of the token's fees is exempt from this fee. */
  readonly allCollectorsExempt: boolean;
  readonly fixed?: FixedFee;
  readonly fractional?: FractionalFee;
  readonly royalty?: RoyaltyFee;
}

/** A token's keys and settings beyond what the generated load uses (set when a TokenCreate names them). */
export interface TokenSettings extends Lifetime {
  adminKey?: LedgerKey;
  kycKey?: LedgerKey;
  freezeKey?: LedgerKey;
  wipeKey?: LedgerKey;
  supplyKey?: LedgerKey;
  feeScheduleKey?: LedgerKey;
  pauseKey?: LedgerKey;
  metadataKey?: LedgerKey;
  memo?: string;
  /** 0 for an infinite supply. */
  maxSupply?: bigint;
  freezeDefault?: boolean;
  metadata?: Uint8Array;
  customFees?: readonly CustomFee[];
}

export interface Token {
  readonly num: bigint;
  readonly type: 'FUNGIBLE_COMMON' | 'NON_FUNGIBLE_UNIQUE';
  /** Name, symbol and treasury change with a TokenUpdate. */
  name: string;
  symbol: string;
  readonly decimals: number;
  treasury: bigint;
  totalSupply: bigint;
  nextSerial: bigint;
  /**
   * The HtsCaller contract whose contract id is the token's supply key, for a token a contract manages
   * (mix/hts-calls.ts): one a user created with every key naming the contract, or an NFT collection the contract
   * created through 0x167 as its own treasury, with that supply key alone. Such a token stays out of the pools the
   * HAPI families draw from.
   */
  readonly manager?: bigint;
  paused?: boolean;
  /** A managed token its contract deleted (its admin key is the contract's id): no later call names it. */
  deleted?: boolean;
  /** A managed token's accounts frozen for it, and those granted KYC (it has freeze and KYC keys). */
  readonly frozen?: Set<bigint>;
  readonly kycGranted?: Set<bigint>;
  /** Keys and settings a submitted TokenCreate gave it. */
  settings?: TokenSettings;
}

export interface Nft {
  owner: bigint;
  /** Changes with a TokenUpdateNfts under the token's metadata key. */
  metadata: Uint8Array;
  deleted: boolean;
  /** The spender approved for this serial, 0n for none. */
  spender: bigint;
  /** When it was minted, for NFTs a submitted TokenMint made (the generated load does not keep it). */
  mintedNs?: bigint;
}

export interface Topic {
  readonly num: bigint;
  sequenceNumber: bigint;
  runningHash: Uint8Array;
  /** The only account allowed to submit (the holder of the submit key), undefined for open topics. */
  readonly submitter: bigint | undefined;
  /** A topic a submitted ConsensusCreateTopic made: its keys and memo (the generated ones use `submitter`). */
  settings?: TopicSettings;
}

export interface TopicSettings extends Lifetime {
  adminKey?: LedgerKey;
  submitKey?: LedgerKey;
  memo: string;
  deleted?: boolean;
  /** HIP-991: the key that changes the custom fees, the fixed fees a submitter pays, and who is exempt from them. */
  feeScheduleKey?: LedgerKey;
  customFees?: readonly CustomFee[];
  feeExemptKeys?: readonly LedgerKey[];
}

/** A file's keys and metadata (its contents live in `Ledger.files`). */
export interface FileMeta {
  /** The file's KeyList: every key signs a change; empty for an immutable file. */
  keys: readonly LedgerKey[];
  memo: string;
  expirationNs: bigint;
  deleted: boolean;
}

export interface Contract {
  readonly num: bigint;
  readonly kind: string;
  /** The account that deployed it (and holds its initial ERC-20 supply). */
  readonly creator: bigint;
  /** Slot (hex, leading zeros trimmed) → value (hex, trimmed); slots set to zero are removed. */
  readonly storage: Map<string, string>;
  /** SimToken contracts: account number → ERC-20 balance, followed from the Transfer logs. */
  readonly erc20Balances: Map<bigint, bigint>;
  /** The runtime code its creation installed. */
  readonly runtime: Uint8Array;
  /** Tinybars it holds: value sent to it, less the token creation fees its system calls paid. */
  balance: bigint;
  /** A contract a submitted ContractCreate deployed: its admin key, memo and lifetime. */
  settings?: ContractSettings;
}

export interface ContractSettings extends Lifetime {
  adminKey?: LedgerKey;
  memo: string;
  deleted?: boolean;
  maxAutoAssociations?: number;
}

/** One contract transaction's gas: what the network charged (the record's `gasUsed`) and what the EVM used. */
export interface ContractResult {
  readonly consensusNs: bigint;
  readonly contract: bigint;
  readonly sender: bigint;
  readonly gasLimit: bigint;
  readonly gasUsed: bigint;
  readonly evmGasUsed: bigint;
  readonly success: boolean;
}

export interface Schedule {
  readonly num: bigint;
  readonly payer: bigint;
  readonly creator: bigint;
  /** Accounts whose signature is still missing before the scheduled transfer runs. */
  readonly awaiting: bigint;
  readonly transfers: readonly { readonly account: bigint; readonly amount: bigint }[];
  readonly createdAt: bigint;
  executed: boolean;
  /** The creating transaction's id with `scheduled: true`: the id of the execution's record. */
  readonly scheduledId: Record<string, unknown>;
  /** A schedule a submitted ScheduleCreate made, of any schedulable transaction. */
  submitted?: SubmittedSchedule;
}

export interface SubmittedSchedule {
  /** The SchedulableTransactionBody, as decoded. */
  readonly body: Record<string, unknown>;
  readonly memo: string;
  readonly adminKey?: LedgerKey;
  /** Hex of every public key that has signed the schedule so far. */
  readonly signatories: string[];
  readonly expirationNs: bigint;
  readonly waitForExpiry: boolean;
  executedNs?: bigint;
  deletedNs?: bigint;
}

export interface ExchangeRate {
  readonly hbarEquiv: number;
  readonly centEquiv: number;
  readonly expirationSeconds: bigint;
}

export class Ledger {
  readonly accounts = new Map<bigint, Account>();
  readonly tokens = new Map<bigint, Token>();
  /** `${account}/${token}` → balance; present exactly while the account is associated. */
  readonly tokenBalances = new Map<string, bigint>();
  /** `${token}/${serial}` → NFT (burned ones stay, flagged deleted). */
  readonly nfts = new Map<string, Nft>();
  readonly topics = new Map<bigint, Topic>();
  readonly contracts = new Map<bigint, Contract>();
  readonly schedules = new Map<bigint, Schedule>();
  /** `${owner}/${spender}` → remaining hbar allowance. */
  readonly cryptoAllowances = new Map<string, bigint>();
  /** `${owner}/${spender}/${token}` → remaining token allowance. */
  readonly tokenAllowances = new Map<string, bigint>();
  /** `${owner}/${spender}/${token}` for approved-for-all NFT allowances. */
  readonly nftApprovalsForAll = new Set<string>();
  /** `${sender}/${receiver}/${token}` (fungible) or `…/${token}/${serial}` (NFT) → amount (1 for NFTs). */
  readonly pendingAirdrops = new Map<string, bigint>();
  /** File number → contents (system files, and files a submitted FileCreate made). */
  readonly files = new Map<bigint, Uint8Array>();
  /** File number → keys and metadata, for files a submitted FileCreate made. */
  readonly fileMeta = new Map<bigint, FileMeta>();
  /** Live (not deleted) user accounts, the usual payers and counterparties. */
  readonly users = new Pool<bigint>();
  /** Token → accounts associated with it. */
  readonly associations = new Map<bigint, Pool<bigint>>();
  readonly fungibleTokens = new Pool<bigint>();
  readonly nftTokens = new Pool<bigint>();
  readonly topicPool = new Pool<bigint>();
  readonly contractPool = new Pool<bigint>();
  /** Keys of the three allowance maps, prefixed `c:`, `t:` or `n:`. */
  readonly allowanceKeys = new Pool<string>();
  readonly airdropKeys = new Pool<string>();
  /** `${token}/${serial}` of NFTs promised in a pending airdrop, so no serial is promised twice. */
  readonly pendingNftSerials = new Set<string>();
  readonly pendingSchedules = new Pool<bigint>();
  readonly contractResults: ContractResult[] = [];
  /** EVM address (hex) → the entity that has it, as alias or EVM address; never two entities for one address. */
  private readonly evmAddresses = new Map<string, bigint>();
  /** Key alias (hex of the serialized Key) → the account created under it. */
  private readonly keyAliases = new Map<string, bigint>();
  exchangeRate: ExchangeRate = { hbarEquiv: 1, centEquiv: 12, expirationSeconds: 0n };
  nextExchangeRate: ExchangeRate = { hbarEquiv: 1, centEquiv: 12, expirationSeconds: 0n };
  private nextEntity = FIRST_USER_ENTITY;

  constructor(nodeCount: number) {
    this.addAccount(TREASURY, TOTAL_SUPPLY_TINYBARS, undefined);
    for (let node = 0; node < nodeCount; node++) this.addAccount(nodeAccount(node), 0n, undefined);
    for (const num of [FEE_COLLECTOR, STAKING_REWARD_ACCOUNT, NODE_REWARD_ACCOUNT]) this.addAccount(num, 0n, undefined);
  }

  private addAccount(num: bigint, genesisBalance: bigint, key: LedgerKey | undefined): Account {
    const account: Account = {
      num,
      balance: genesisBalance,
      genesisBalance,
      key,
      memo: '',
      deleted: false,
      evmAddress: undefined,
      maxAutoAssociations: 0,
      tokens: new Set(),
      ethereumNonce: 0n,
    };
    this.accounts.set(num, account);
    return account;
  }

  get nextEntityNumber(): bigint {
    return this.nextEntity;
  }

  /** The next entity number, as the network assigns it at consensus. */
  allocateEntity(): bigint {
    return this.nextEntity++;
  }

  account(num: bigint): Account {
    const account = this.accounts.get(num);
    if (!account) throw new Error(`ledger: no account 0.0.${num}`);
    return account;
  }

  /** Rebuilds the indexes derived from other fields, after a restore replaced those fields (ledger/snapshot.ts). */
  rebuildIndexes(): void {
    this.evmAddresses.clear();
    this.keyAliases.clear();
    for (const account of this.accounts.values()) {
      if (account.evmAddress) this.claimEvmAddress(account.evmAddress, account.num);
      if (account.keyAlias) this.keyAliases.set(Buffer.from(account.keyAlias).toString('hex'), account.num);
    }
    for (const contract of this.contracts.keys()) this.claimEvmAddress(longZeroAddress(contract), contract);
    this.serialsByOwner.clear();
    for (const [key, nft] of this.nfts) {
      const [token = 0n, serial = 0n] = key.split('/').map(BigInt);
      if (!nft.deleted) this.ownerSerials(nft.owner, token).add(serial);
    }
  }

  /** Records that `num` has `address` as its EVM address or alias; throws when another entity has it already. */
  claimEvmAddress(address: Uint8Array, num: bigint): void {
    const hex = Buffer.from(address).toString('hex');
    const holder = this.evmAddresses.get(hex);
    if (holder !== undefined && holder !== num) {
      throw new Error(`ledger: EVM address 0x${hex} of 0.0.${num} already belongs to 0.0.${holder}`);
    }
    this.evmAddresses.set(hex, num);
  }

  /** The address an entity acts under in the EVM: its EVM address when it has one, else long-zero. */
  canonicalAddress(num: bigint): Uint8Array {
    return this.accounts.get(num)?.evmAddress ?? longZeroAddress(num);
  }

  /** The account a key alias names, if a transfer created one under it. */
  entityOfKeyAlias(alias: Uint8Array): bigint | undefined {
    return this.keyAliases.get(Buffer.from(alias).toString('hex'));
  }

  /** The entity behind an EVM address: long-zero, or an alias or EVM address the model knows. */
  entityOfAddress(address: Uint8Array): bigint | undefined {
    return numOfLongZero(address) ?? this.evmAddresses.get(Buffer.from(address).toString('hex'));
  }

  /**
   * A new account. `pooled`: the generated load may pick it as payer or counterparty; an account a submitted
   * transaction created stays out, so nobody but its key holder moves its hbar.
   */
  createAccount(
    num: bigint,
    key: LedgerKey,
    fields: {
      memo: string;
      evmAddress: Uint8Array | undefined;
      maxAutoAssociations: number;
      stakedNodeId?: number;
      keyAlias?: Uint8Array;
    },
    pooled = true,
  ): Account {
    if (fields.evmAddress) this.claimEvmAddress(fields.evmAddress, num);
    if (fields.keyAlias) this.keyAliases.set(Buffer.from(fields.keyAlias).toString('hex'), num);
    const account: Account = {
      num,
      balance: 0n,
      genesisBalance: 0n,
      key,
      memo: fields.memo,
      deleted: false,
      evmAddress: fields.evmAddress,
      maxAutoAssociations: fields.maxAutoAssociations,
      tokens: new Set(),
      ethereumNonce: 0n,
      ...(fields.stakedNodeId !== undefined ? { stakedNodeId: fields.stakedNodeId } : {}),
      ...(fields.keyAlias ? { keyAlias: fields.keyAlias } : {}),
    };
    this.accounts.set(num, account);
    if (pooled) this.users.add(num);
    return account;
  }

  /** Applies one netted hbar transfer list to accounts and contracts; throws when it would not sum to zero (a generator bug). */
  applyHbar(transfers: ReadonlyMap<bigint, bigint>): void {
    let sum = 0n;
    for (const amount of transfers.values()) sum += amount;
    if (sum !== 0n) throw new Error(`ledger: hbar transfers sum to ${sum}`);
    for (const [num, amount] of transfers) {
      const account = this.accounts.get(num) ?? this.contracts.get(num) ?? this.account(num);
      account.balance += amount;
      if (account.balance < 0n) throw new Error(`ledger: 0.0.${num} would go negative`);
    }
  }

  isAssociated(account: bigint, token: bigint): boolean {
    return this.tokenBalances.has(`${account}/${token}`);
  }

  tokenBalance(account: bigint, token: bigint): bigint {
    return this.tokenBalances.get(`${account}/${token}`) ?? 0n;
  }

  associate(account: bigint, token: bigint): void {
    const key = `${account}/${token}`;
    if (!this.tokenBalances.has(key)) this.tokenBalances.set(key, 0n);
    this.account(account).tokens.add(token);
    let pool = this.associations.get(token);
    if (!pool) {
      pool = new Pool();
      this.associations.set(token, pool);
    }
    pool.add(account);
  }

  /** Auto-association slots still free (−1 = unlimited). */
  freeAutoAssociations(account: Account): number {
    if (account.maxAutoAssociations < 0) return Number.POSITIVE_INFINITY;
    return account.maxAutoAssociations - this.autoAssociated(account);
  }

  private readonly autoAssociations = new Map<bigint, number>();

  autoAssociated(account: Account): number {
    return this.autoAssociations.get(account.num) ?? 0;
  }

  autoAssociate(account: bigint, token: bigint): void {
    this.associate(account, token);
    this.autoAssociations.set(account, (this.autoAssociations.get(account) ?? 0) + 1);
  }

  addTokenBalance(account: bigint, token: bigint, delta: bigint): void {
    const key = `${account}/${token}`;
    const current = this.tokenBalances.get(key);
    if (current === undefined) throw new Error(`ledger: 0.0.${account} is not associated with 0.0.${token}`);
    if (current + delta < 0n) throw new Error(`ledger: token balance of 0.0.${account} would go negative`);
    this.tokenBalances.set(key, current + delta);
  }

  nft(token: bigint, serial: bigint): Nft | undefined {
    return this.nfts.get(`${token}/${serial}`);
  }

  /** `${owner}/${token}` → serials the owner holds, for picking what to transfer or burn without a scan. */
  private readonly serialsByOwner = new Map<string, Set<bigint>>();

  private ownerSerials(owner: bigint, token: bigint): Set<bigint> {
    const key = `${owner}/${token}`;
    let set = this.serialsByOwner.get(key);
    if (!set) {
      set = new Set();
      this.serialsByOwner.set(key, set);
    }
    return set;
  }

  mintNft(token: Token, metadata: Uint8Array): bigint {
    const serial = token.nextSerial++;
    this.nfts.set(`${token.num}/${serial}`, { owner: token.treasury, metadata, deleted: false, spender: 0n });
    this.ownerSerials(token.treasury, token.num).add(serial);
    this.addTokenBalance(token.treasury, token.num, 1n);
    token.totalSupply += 1n;
    return serial;
  }

  /** Burns a serial of the treasury, or wipes one of `owner`. */
  burnNft(token: Token, serial: bigint, owner = token.treasury): void {
    const nft = this.nft(token.num, serial);
    if (!nft || nft.deleted || nft.owner !== owner) throw new Error(`ledger: cannot burn ${token.num}/${serial}`);
    nft.deleted = true;
    nft.spender = 0n;
    this.ownerSerials(owner, token.num).delete(serial);
    this.addTokenBalance(owner, token.num, -1n);
    token.totalSupply -= 1n;
  }

  /** Takes back `serial`, the last serial minted (a mint whose transaction reverted). */
  unmintNft(token: Token, serial: bigint): void {
    const nft = this.nft(token.num, serial);
    if (!nft || serial !== token.nextSerial - 1n)
      throw new Error(`ledger: ${token.num}/${serial} is not the last mint`);
    this.nfts.delete(`${token.num}/${serial}`);
    this.ownerSerials(nft.owner, token.num).delete(serial);
    this.addTokenBalance(nft.owner, token.num, -1n);
    token.totalSupply -= 1n;
    token.nextSerial = serial;
  }

  /** Gives a burned or wiped serial back to `owner` (a burn or wipe whose transaction reverted). */
  restoreNft(token: Token, serial: bigint, owner: bigint): void {
    const nft = this.nft(token.num, serial);
    if (!nft?.deleted) throw new Error(`ledger: ${token.num}/${serial} is not burned`);
    nft.deleted = false;
    nft.owner = owner;
    this.ownerSerials(owner, token.num).add(serial);
    this.addTokenBalance(owner, token.num, 1n);
    token.totalSupply += 1n;
  }

  /** Moves an NFT and its owner's token-balance counts; the serial's spender approval ends with the move. */
  moveNft(token: bigint, serial: bigint, from: bigint, to: bigint): void {
    const nft = this.nft(token, serial);
    if (!nft || nft.deleted || nft.owner !== from)
      throw new Error(`ledger: 0.0.${from} does not own ${token}/${serial}`);
    this.addTokenBalance(from, token, -1n);
    this.addTokenBalance(to, token, 1n);
    this.ownerSerials(from, token).delete(serial);
    this.ownerSerials(to, token).add(serial);
    nft.owner = to;
    nft.spender = 0n;
  }

  /** NFT serials (not burned) owned by `owner`, longest held first, at most `limit`. */
  nftsOwnedBy(owner: bigint, token: bigint, limit: number): bigint[] {
    const out: bigint[] = [];
    for (const serial of this.serialsByOwner.get(`${owner}/${token}`) ?? []) {
      if (out.length >= limit) break;
      out.push(serial);
    }
    return out;
  }
}
