/**
 * The token ledger one run of the EVM sees: the session's ledger reads (LedgerReads) under a write layer that the
 * state-changing system contract functions fill (balances, relationships, allowances, NFTs, tokens, hollow accounts,
 * automatic association limits and slots used, created and deleted schedules, pending airdrops). Its writes follow the EVM's frames:
 * `checkpoint` when a frame starts, `commit` when it succeeds, `revert` when it fails, so a write made inside a
 * reverted frame is undone with the frame's storage. A run starts from an empty layer, so nothing written outlives
 * the request.
 */
import type { AirdropKey, NftRow, TokenRelationshipRow } from '../../../db/queries/evm-system-tokens.ts';
import type { EvmEntity, LedgerReader } from '../types.ts';
import { ledgerReads } from './ledger-reads.ts';
import type { Signatory } from './schedule-keys.ts';
import type { ScheduledBody } from './scheduled-body.ts';
import type { TokenState } from './token-state.ts';

type Undo = () => void;

/** A map whose every write can be undone: the previous value (or its absence) goes to the journal. */
class JournaledMap<V> {
  private readonly values = new Map<string, V>();
  private readonly journal: (undo: Undo) => void;

  constructor(journal: (undo: Undo) => void) {
    this.journal = journal;
  }

  has(key: string): boolean {
    return this.values.has(key);
  }

  get(key: string): V | undefined {
    return this.values.get(key);
  }

  set(key: string, value: V): void {
    const had = this.values.has(key);
    const previous = this.values.get(key);
    this.values.set(key, value);
    this.journal(() => {
      if (had) this.values.set(key, previous as V);
      else this.values.delete(key);
    });
  }
}

/** A schedule created in the run: its entity (admin key as its key) and when it expires, in nanoseconds. */
export interface CreatedSchedule {
  readonly entity: EvmEntity;
  readonly expirationTime: bigint;
  /** The account that pays for the scheduled transaction. */
  readonly payer: bigint;
  readonly waitForExpiry: boolean;
  readonly body: ScheduledBody;
}

/** An NFT's row in the layer; null: the serial was burned or wiped in this run. */
type NftWrite = NftRow | null;

export class TokenLedger {
  private readonly reader: LedgerReader;
  /** One list of undo steps per open frame, the innermost last. */
  private readonly frames: Undo[][] = [];
  private readonly record = (undo: Undo) => this.frames.at(-1)?.push(undo);
  private readonly tokens = new JournaledMap<TokenState>(this.record);
  private readonly relationships = new JournaledMap<TokenRelationshipRow | undefined>(this.record);
  private readonly nfts = new JournaledMap<NftWrite>(this.record);
  private readonly tokenAllowances = new JournaledMap<bigint>(this.record);
  private readonly operators = new JournaledMap<boolean>(this.record);
  private readonly hbarAllowances = new JournaledMap<bigint>(this.record);
  private readonly tokenAddresses = new JournaledMap<bigint>(this.record);
  private readonly lastSerials = new JournaledMap<bigint>(this.record);
  private readonly maxAutoAssociationsById = new JournaledMap<number>(this.record);
  private readonly autoAssociationsMade = new JournaledMap<number>(this.record);
  private readonly deletedSchedules = new JournaledMap<true>(this.record);
  private readonly executedSchedules = new JournaledMap<true>(this.record);
  /** The signatories of schedules a ScheduleCreate or ScheduleSign of this run signed, by id. */
  private readonly signatories = new JournaledMap<ReadonlySet<Signatory>>(this.record);
  /** Schedules a ScheduleCreate of this run made, by id. */
  private readonly schedules = new JournaledMap<CreatedSchedule>(this.record);
  /** The id of each schedule created in this run, by what makes two schedules identical to the node. */
  private readonly scheduleIdentities = new JournaledMap<bigint>(this.record);
  /** Pending airdrops written in this run; null: claimed or cancelled. */
  private readonly airdrops = new JournaledMap<bigint | null>(this.record);
  /** Hollow accounts a transfer of this run created, by EVM address (hex, no prefix) and by id. */
  private readonly accountsByAddress = new JournaledMap<EvmEntity>(this.record);
  private readonly accountsById = new JournaledMap<EvmEntity>(this.record);

  constructor(reader: LedgerReader) {
    this.reader = reader;
  }

  checkpoint(): void {
    this.frames.push([]);
  }

  /** The frame succeeded: its undo steps belong to the frame around it (none at the top: they are dropped). */
  commit(): void {
    const frame = this.frames.pop();
    if (frame) this.frames.at(-1)?.push(...frame);
  }

  revert(): void {
    const frame = this.frames.pop() ?? [];
    for (let i = frame.length - 1; i >= 0; i--) frame[i]?.();
  }

  private get reads() {
    return ledgerReads(this.reader);
  }

  async token(id: bigint): Promise<TokenState | undefined> {
    return this.tokens.get(String(id)) ?? this.reads.token(id);
  }

  /** The hollow account created in this run at `address` (hex, no prefix), if any. */
  createdAccountAt(address: string): EvmEntity | undefined {
    return this.accountsByAddress.get(address);
  }

  createdAccount(id: bigint): EvmEntity | undefined {
    return this.accountsById.get(String(id));
  }

  putCreatedAccount(account: EvmEntity, address: string): void {
    this.accountsByAddress.set(address, account);
    this.accountsById.set(String(account.id), account);
  }

  /** The id of a token created in this run at `address` (hex, no prefix), if any. */
  createdTokenAt(address: string): bigint | undefined {
    return this.tokenAddresses.get(address);
  }

  putToken(token: TokenState, address?: string): void {
    this.tokens.set(String(token.id), token);
    if (address !== undefined) this.tokenAddresses.set(address, token.id);
  }

  async relationship(accountId: bigint, tokenId: bigint): Promise<TokenRelationshipRow | undefined> {
    const key = `${accountId}/${tokenId}`;
    if (this.relationships.has(key)) return this.relationships.get(key);
    return this.reads.relationship(accountId, tokenId);
  }

  /** The relationship with its balance as `balance` counts it: the row a write starts from. */
  async relationshipToWrite(accountId: bigint, token: TokenState): Promise<TokenRelationshipRow | undefined> {
    const row = await this.relationship(accountId, token.id);
    return row && { ...row, balance: String(await this.balance(accountId, token)) };
  }

  /** Writes the relationship; undefined: the account is no longer associated. */
  putRelationship(accountId: bigint, tokenId: bigint, row: TokenRelationshipRow | undefined): void {
    this.relationships.set(`${accountId}/${tokenId}`, row);
  }

  /** The account's balance of the token: a fungible amount, or how many of the NFT's serials it owns. */
  async balance(accountId: bigint, token: TokenState): Promise<bigint> {
    const key = `${accountId}/${token.id}`;
    if (!this.relationships.has(key)) return this.reads.balance(accountId, token);
    const row = this.relationships.get(key);
    return row ? BigInt(row.balance) : 0n;
  }

  async nft(tokenId: bigint, serial: bigint): Promise<NftRow | undefined> {
    const key = `${tokenId}/${serial}`;
    if (this.nfts.has(key)) return this.nfts.get(key) ?? undefined;
    return this.reads.nft(tokenId, serial);
  }

  putNft(tokenId: bigint, serial: bigint, nft: NftWrite): void {
    this.nfts.set(`${tokenId}/${serial}`, nft);
  }

  async tokenAllowance(owner: bigint, spender: bigint, tokenId: bigint): Promise<bigint> {
    return (
      this.tokenAllowances.get(`${owner}/${spender}/${tokenId}`) ?? this.reads.tokenAllowance(owner, spender, tokenId)
    );
  }

  putTokenAllowance(owner: bigint, spender: bigint, tokenId: bigint, amount: bigint): void {
    this.tokenAllowances.set(`${owner}/${spender}/${tokenId}`, amount);
  }

  async approvedForAll(owner: bigint, spender: bigint, tokenId: bigint): Promise<boolean> {
    return this.operators.get(`${owner}/${spender}/${tokenId}`) ?? this.reads.approvedForAll(owner, spender, tokenId);
  }

  putApprovedForAll(owner: bigint, spender: bigint, tokenId: bigint, approved: boolean): void {
    this.operators.set(`${owner}/${spender}/${tokenId}`, approved);
  }

  async cryptoAllowance(owner: bigint, spender: bigint): Promise<bigint> {
    return this.hbarAllowances.get(`${owner}/${spender}`) ?? this.reads.cryptoAllowance(owner, spender);
  }

  putCryptoAllowance(owner: bigint, spender: bigint, amount: bigint): void {
    this.hbarAllowances.set(`${owner}/${spender}`, amount);
  }

  /** The highest serial minted of the NFT, mints of this run included. */
  async lastSerial(tokenId: bigint): Promise<bigint> {
    return this.lastSerials.get(String(tokenId)) ?? this.reads.lastSerial(tokenId);
  }

  putLastSerial(tokenId: bigint, serial: bigint): void {
    this.lastSerials.set(String(tokenId), serial);
  }

  /** The account's automatic association limit (-1: unlimited), updates of this run included. */
  maxAutoAssociations(account: EvmEntity): number {
    return this.maxAutoAssociationsById.get(String(account.id)) ?? account.maxAutomaticTokenAssociations;
  }

  putMaxAutoAssociations(accountId: bigint, max: number): void {
    this.maxAutoAssociationsById.set(String(accountId), max);
  }

  /** The automatic association slots the account has used, those this run used included. */
  async usedAutoAssociations(accountId: bigint): Promise<number> {
    const made = this.autoAssociationsMade.get(String(accountId)) ?? 0;
    return (await this.reads.autoAssociations(accountId)) + made;
  }

  noteAutoAssociation(accountId: bigint): void {
    const key = String(accountId);
    this.autoAssociationsMade.set(key, (this.autoAssociationsMade.get(key) ?? 0) + 1);
  }

  /** Whether the schedule was deleted by a ScheduleDelete of this run. */
  scheduleDeleted(scheduleId: bigint): boolean {
    return this.deletedSchedules.has(String(scheduleId));
  }

  deleteSchedule(scheduleId: bigint): void {
    this.deletedSchedules.set(String(scheduleId), true);
  }

  /** Whether a ScheduleCreate or ScheduleSign of this run executed the schedule. */
  scheduleExecuted(scheduleId: bigint): boolean {
    return this.executedSchedules.has(String(scheduleId));
  }

  markScheduleExecuted(scheduleId: bigint): void {
    this.executedSchedules.set(String(scheduleId), true);
  }

  /** The schedule's signatories as this run left them; undefined when no signing of this run touched them. */
  scheduleSignatories(scheduleId: bigint): ReadonlySet<Signatory> | undefined {
    return this.signatories.get(String(scheduleId));
  }

  putScheduleSignatories(scheduleId: bigint, signatories: ReadonlySet<Signatory>): void {
    this.signatories.set(String(scheduleId), signatories);
  }

  /** The schedule a ScheduleCreate of this run made with this id, if any. */
  createdSchedule(scheduleId: bigint): CreatedSchedule | undefined {
    return this.schedules.get(String(scheduleId));
  }

  /** The id of a schedule created in this run with this identity, if any. */
  identicalSchedule(identity: string): bigint | undefined {
    return this.scheduleIdentities.get(identity);
  }

  putCreatedSchedule(schedule: CreatedSchedule, identity: string): void {
    this.schedules.set(String(schedule.entity.id), schedule);
    this.scheduleIdentities.set(identity, schedule.entity.id);
  }

  /** The pending airdrop's amount (0 for an NFT), this run's airdrops, claims and cancellations included. */
  async pendingAirdrop(key: AirdropKey): Promise<bigint | undefined> {
    const id = `${key.sender}/${key.receiver}/${key.tokenId}/${key.serial}`;
    if (this.airdrops.has(id)) return this.airdrops.get(id) ?? undefined;
    return this.reads.pendingAirdrop(key);
  }

  /** Writes a pending airdrop's amount; undefined: it is no longer pending. */
  putPendingAirdrop(key: AirdropKey, amount: bigint | undefined): void {
    this.airdrops.set(`${key.sender}/${key.receiver}/${key.tokenId}/${key.serial}`, amount ?? null);
  }
}
