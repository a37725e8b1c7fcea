/**
 * The EVM's state for a run: a write overlay (SimpleStateManager's checkpoint stacks) over the ledger reads of the
 * session it is bound to. Every address is first turned into its entity's canonical form, so a contract reached by
 * its long-zero address and by its EVM address has one account, one code and one storage.
 */

import type { Common } from '@ethereumjs/common';
import { SimpleStateManager } from '@ethereumjs/statemanager';
import { Account, Address, bytesToHex, KECCAK256_NULL, unpadBytes } from '@ethereumjs/util';
import type { Bytecode } from './bytecode-cache.ts';
import { EntityNumbers } from './next-entity-id.ts';
import type { SlotReader } from './slot-reader.ts';
import type { EvmEntity, LedgerReader } from './types.ts';

/** What a non-contract account shows as its balance at least, so a call never fails for want of hbar (tinybars). */
const MINIMUM_ACCOUNT_BALANCE = 100_000_000_000_000_000n;

/** The code an entity shows to the EVM: a contract's runtime code, a token's redirect proxy, a delegation. */
export type EntityCode = (entity: EvmEntity, address: Uint8Array) => Promise<Bytecode | undefined>;

/** What a run reads through: one session's ledger at its block. */
export interface StateSource {
  readonly ledger: LedgerReader;
  readonly slots: SlotReader;
  readonly codeOf: EntityCode;
  /** The number the run's first new entity takes (`firstNewEntityNumber`, read once per session). */
  firstEntityNumber(): Promise<bigint>;
}

interface BaseAccount {
  readonly entity: EvmEntity;
  readonly account: Account;
  readonly code: Uint8Array;
  /** Tinybars the shown balance lies above the real one (the minimum-balance rule). */
  readonly boost: bigint;
}

export class LedgerState extends SimpleStateManager {
  private source: StateSource | undefined;
  private readonly bases = new Map<string, Promise<BaseAccount | undefined>>();
  private readonly canonicals = new Map<string, Promise<Address>>();
  private realBalanceId: bigint | undefined;
  /** The run's entity numbers, made when the run first creates something. */
  private entityNumbers: EntityNumbers | undefined;
  /** EVM frames open in the run: a checkpoint each. */
  private depth = 0;

  constructor(common: Common) {
    super({ common });
  }

  private get bound(): StateSource {
    if (!this.source) throw new Error('the state is not bound to a session');
    return this.source;
  }

  /**
   * Starts a run of a session: drops every write of the previous run, and what was read through another session.
   * `realBalanceId`: the account whose real balance is shown, without the minimum (a payer whose balance is
   * validated).
   */
  reset(source: StateSource, realBalanceId: bigint | undefined): void {
    if (source !== this.source || realBalanceId !== this.realBalanceId) {
      this.source = source;
      this.realBalanceId = realBalanceId;
      this.bases.clear();
      this.canonicals.clear();
    }
    this.clearRun();
    this.originalStorageCache.clear();
  }

  /** Forgets the session and its run, so an idle state holds none of their reads. */
  unbind(): void {
    this.source = undefined;
    this.realBalanceId = undefined;
    this.bases.clear();
    this.canonicals.clear();
    this.clearRun();
  }

  private clearRun(): void {
    this.accountStack = [];
    this.codeStack = [];
    this.storageStack = [];
    this.checkpointSync();
    this.entityNumbers = undefined;
    this.depth = 0;
  }

  /** The entity numbers of the run, checkpointed with its frames, so a reverted frame gives its numbers back. */
  async numbers(): Promise<EntityNumbers> {
    if (!this.entityNumbers) {
      const first = await this.bound.firstEntityNumber();
      if (!this.entityNumbers) {
        const numbers = new EntityNumbers(first);
        for (let open = 0; open < this.depth; open++) numbers.checkpoint();
        this.entityNumbers = numbers;
      }
    }
    return this.entityNumbers;
  }

  override async checkpoint(): Promise<void> {
    await super.checkpoint();
    this.depth++;
    this.entityNumbers?.checkpoint();
  }

  override async commit(): Promise<void> {
    await super.commit();
    this.depth--;
    this.entityNumbers?.commit();
  }

  override async revert(): Promise<void> {
    await super.revert();
    this.depth--;
    this.entityNumbers?.revert();
  }

  /** The address the state keys `address` by: the EVM address of the entity it names, if it has one. */
  canonical(address: Address): Promise<Address> {
    const key = address.toString();
    let canonical = this.canonicals.get(key);
    if (!canonical) {
      canonical = this.bound.ledger
        .entityByAddress(address.bytes)
        .then((entity) => (entity?.evmAddress ? new Address(entity.evmAddress) : address));
      this.canonicals.set(key, canonical);
    }
    return canonical;
  }

  /** The ledger entity behind an address, unless it is missing or deleted at the block. */
  async entityAt(address: Address): Promise<EvmEntity | undefined> {
    return (await this.base(await this.canonical(address)))?.entity;
  }

  /** The balance without the minimum-balance rule: what BALANCE answers. */
  async realBalance(address: Address): Promise<bigint> {
    const canonical = await this.canonical(address);
    const account = await this.getAccount(canonical);
    if (!account) return 0n;
    const boost = (await this.base(canonical))?.boost ?? 0n;
    return account.balance > boost ? account.balance - boost : 0n;
  }

  override async getAccount(address: Address): Promise<Account | undefined> {
    const canonical = await this.canonical(address);
    const top = this.topAccountStack();
    const key = canonical.toString();
    if (top.has(key)) return top.get(key);
    const base = await this.base(canonical);
    if (!base) return undefined;
    // A copy: the EVM edits the account it gets before putting it back.
    const { nonce, balance, codeHash } = base.account;
    return new Account(nonce, balance, undefined, codeHash);
  }

  override async putAccount(address: Address, account?: Account): Promise<void> {
    return super.putAccount(await this.canonical(address), account);
  }

  override async deleteAccount(address: Address): Promise<void> {
    return super.deleteAccount(await this.canonical(address));
  }

  override async getCode(address: Address): Promise<Uint8Array> {
    const canonical = await this.canonical(address);
    const written = this.topCodeStack().get(canonical.toString());
    if (written) return written;
    if (this.topAccountStack().has(canonical.toString()) && !this.topAccountStack().get(canonical.toString())) {
      return new Uint8Array();
    }
    return (await this.base(canonical))?.code ?? new Uint8Array();
  }

  override async putCode(address: Address, value: Uint8Array): Promise<void> {
    return super.putCode(await this.canonical(address), value);
  }

  override async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  override async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    const canonical = await this.canonical(address);
    // Keyed as SimpleStateManager keys its writes.
    const written = this.topStorageStack().get(`${canonical.toString()}_${bytesToHex(key)}`);
    if (written) return written;
    const base = await this.base(canonical);
    // An account has storage of its own once it delegates (EIP-7702): its delegate's code runs on it. Any account is
    // read, not only one that delegates at the block: a type-4 replay can delegate it again within the run.
    if (base?.entity.type !== 'CONTRACT' && base?.entity.type !== 'ACCOUNT') return new Uint8Array();
    return unpadBytes(await this.bound.slots.read(base.entity.id, key));
  }

  override async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    return super.putStorage(await this.canonical(address), key, value);
  }

  override async clearStorage(address: Address): Promise<void> {
    return super.clearStorage(await this.canonical(address));
  }

  private base(canonical: Address): Promise<BaseAccount | undefined> {
    const key = canonical.toString();
    let base = this.bases.get(key);
    if (!base) {
      base = this.loadBase(canonical);
      this.bases.set(key, base);
    }
    return base;
  }

  private async loadBase(canonical: Address): Promise<BaseAccount | undefined> {
    const entity = await this.bound.ledger.entityByAddress(canonical.bytes);
    if (!entity || entity.deleted) return undefined;
    const bytecode = await this.bound.codeOf(entity, canonical.bytes);
    const showsMinimum = entity.type === 'ACCOUNT' && entity.id !== this.realBalanceId;
    const balance = showsMinimum && entity.balance < MINIMUM_ACCOUNT_BALANCE ? MINIMUM_ACCOUNT_BALANCE : entity.balance;
    const account = new Account(entity.ethereumNonce, balance, undefined, bytecode?.hash ?? KECCAK256_NULL);
    return { entity, account, code: bytecode?.code ?? new Uint8Array(), boost: balance - entity.balance };
  }
}
