/**
 * The simulator's EVM state: one map each of accounts, code and storage, and an undo log per open checkpoint. The
 * library's SimpleStateManager copies all three maps at every checkpoint (every call frame), a cost that grows with
 * the whole ledger's contract state; here a checkpoint costs nothing, a write logs the value it replaces, and a
 * commit or revert costs what its frame wrote.
 */
import type { AccountFields, StateManagerInterface } from '@ethereumjs/common';
import { OriginalStorageCache } from '@ethereumjs/statemanager';
import { Account, type Address, bytesToUnprefixedHex } from '@ethereumjs/util';
import { keccak_256 } from '@noble/hashes/sha3.js';

type Undo = () => void;

const EMPTY = new Uint8Array(0);

const copyOf = (account: Account): Account =>
  Object.assign(Object.create(Object.getPrototypeOf(account)) as Account, account);

/** A map write that can be undone: `undo` puts back what `key` held (or its absence). */
function setLogged<K, V>(map: Map<K, V>, key: K, value: V, log: Undo[] | undefined): void {
  if (log) {
    const had = map.has(key);
    const previous = map.get(key);
    log.push(had ? () => map.set(key, previous as V) : () => map.delete(key));
  }
  map.set(key, value);
}

export class JournaledStateManager implements StateManagerInterface {
  /** `undefined` marks an account deleted within the state (as SimpleStateManager does). */
  private readonly accounts = new Map<string, Account | undefined>();
  private readonly code = new Map<string, Uint8Array>();
  /** Per address, slot (unprefixed hex) → value. */
  private readonly storage = new Map<string, Map<string, Uint8Array>>();
  /** One undo log per open checkpoint, innermost last; writes outside any checkpoint are not logged. */
  private readonly logs: Undo[][] = [];
  readonly originalStorageCache = new OriginalStorageCache(this.getStorage.bind(this));
  /**
   * The code an address without code of its own shows the EVM (a token's redirect proxy, as the node shows it to
   * EXTCODESIZE and EXTCODECOPY); undefined: none.
   */
  codeOf: ((address: Address) => Uint8Array | undefined) | undefined;

  private get log(): Undo[] | undefined {
    return this.logs.at(-1);
  }

  /**
   * Accounts go in and out as copies: the EVM changes an account object it holds (a balance, a nonce) before
   * putting it back, and the undo log must keep the value it replaces as it was.
   */
  async getAccount(address: Address): Promise<Account | undefined> {
    const account = this.accounts.get(address.toString());
    return account && copyOf(account);
  }

  async putAccount(address: Address, account?: Account): Promise<void> {
    setLogged(this.accounts, address.toString(), account && copyOf(account), this.log);
  }

  async deleteAccount(address: Address): Promise<void> {
    setLogged(this.accounts, address.toString(), undefined, this.log);
  }

  async modifyAccountFields(address: Address, fields: AccountFields): Promise<void> {
    const account = (await this.getAccount(address)) ?? new Account();
    account.nonce = fields.nonce ?? account.nonce;
    account.balance = fields.balance ?? account.balance;
    account.storageRoot = fields.storageRoot ?? account.storageRoot;
    account.codeHash = fields.codeHash ?? account.codeHash;
    account.codeSize = fields.codeSize ?? account.codeSize;
    await this.putAccount(address, account);
  }

  async putCode(address: Address, value: Uint8Array): Promise<void> {
    setLogged(this.code, address.toString(), value, this.log);
    await this.modifyAccountFields(address, { codeHash: keccak_256(value) });
  }

  async getCode(address: Address): Promise<Uint8Array> {
    return this.code.get(address.toString()) ?? this.codeOf?.(address) ?? EMPTY;
  }

  async getCodeSize(address: Address): Promise<number> {
    return (await this.getCode(address)).length;
  }

  async getStorage(address: Address, key: Uint8Array): Promise<Uint8Array> {
    return this.storage.get(address.toString())?.get(bytesToUnprefixedHex(key)) ?? EMPTY;
  }

  async putStorage(address: Address, key: Uint8Array, value: Uint8Array): Promise<void> {
    const id = address.toString();
    let slots = this.storage.get(id);
    if (!slots) {
      slots = new Map();
      setLogged(this.storage, id, slots, this.log);
    }
    setLogged(slots, bytesToUnprefixedHex(key), value, this.log);
  }

  async clearStorage(address: Address): Promise<void> {
    setLogged(this.storage, address.toString(), new Map(), this.log);
  }

  async checkpoint(): Promise<void> {
    this.logs.push([]);
  }

  /** The frame's writes stay; its undo entries join the enclosing frame's, which may still revert them. */
  async commit(): Promise<void> {
    const done = this.logs.pop();
    const outer = this.log;
    if (done && outer) for (const undo of done) outer.push(undo);
  }

  async revert(): Promise<void> {
    const done = this.logs.pop() ?? [];
    for (let i = done.length - 1; i >= 0; i--) done[i]?.();
  }

  async flush(): Promise<void> {}

  clearCaches(): void {}

  /** An independent state with the same contents (outside any checkpoint). */
  shallowCopy(): JournaledStateManager {
    const copy = new JournaledStateManager();
    for (const [key, account] of this.accounts) copy.accounts.set(key, account);
    for (const [key, code] of this.code) copy.code.set(key, code);
    for (const [key, slots] of this.storage) copy.storage.set(key, new Map(slots));
    return copy;
  }

  getStateRoot(): Promise<Uint8Array> {
    throw new Error('the simulator keeps no state root');
  }

  setStateRoot(): Promise<void> {
    throw new Error('the simulator keeps no state root');
  }

  hasStateRoot(): Promise<boolean> {
    throw new Error('the simulator keeps no state root');
  }
}
