/**
 * The system contracts' reads of one session, each made once: the runs of an estimate (up to 20 of the same call)
 * repeat none of them. Reads are at the session's block: the current tables at `latest`, else as of the block's
 * `consensus_end`.
 */
import {
  type AirdropKey,
  autoAssociationsAt,
  cryptoAllowanceAt,
  type NftRow,
  nftApprovedForAllAt,
  nftAt,
  nftBalanceAt,
  nftLastSerialAt,
  pendingAirdropAt,
  type TokenRelationshipRow,
  tokenAllowanceAt,
  tokenRelationshipAt,
} from '../../../db/queries/evm-system-tokens.ts';
import { loadSystemFiles, type SystemFile } from '../../routes/network/system-files.ts';
import type { LedgerReader } from '../types.ts';
import { type ExchangeRate, exchangeRateFile, exchangeRateOf } from './exchange-rate-file.ts';
import { type FeeSchedule, feeScheduleFile, feeScheduleOf } from './fee-schedule-file.ts';
import { loadToken, type TokenState } from './token-state.ts';

export class LedgerReads {
  private readonly reader: LedgerReader;
  private readonly at: bigint | undefined;
  private readonly cache = new Map<string, Promise<unknown>>();

  constructor(reader: LedgerReader) {
    this.reader = reader;
    this.at = reader.block.historical ? reader.block.consensusEnd : undefined;
  }

  private once<T>(key: string, load: () => Promise<T>): Promise<T> {
    let value = this.cache.get(key) as Promise<T> | undefined;
    if (!value) {
      value = load();
      this.cache.set(key, value);
    }
    return value;
  }

  token(id: bigint): Promise<TokenState | undefined> {
    const load = () => loadToken(this.reader, id);
    return this.once(`token ${id}`, () =>
      this.at === undefined ? this.reader.latest.tokens.get(String(id), load) : load(),
    );
  }

  relationship(accountId: bigint, tokenId: bigint): Promise<TokenRelationshipRow | undefined> {
    const load = () => tokenRelationshipAt(this.reader.db, accountId, tokenId, this.at);
    return this.once(`relationship ${accountId} ${tokenId}`, () =>
      this.at === undefined ? this.reader.latest.relationships.get(`${accountId}/${tokenId}`, load) : load(),
    );
  }

  /** The account's balance of the token: a fungible amount, or how many of the NFT's serials it owns. */
  balance(accountId: bigint, token: TokenState): Promise<bigint> {
    const at = this.at;
    if (at !== undefined && !token.fungible) {
      return this.once(`nft balance ${accountId} ${token.id}`, () =>
        nftBalanceAt(this.reader.db, accountId, token.id, at),
      );
    }
    return this.relationship(accountId, token.id).then((row) => (row ? BigInt(row.balance) : 0n));
  }

  /** The serial's NFT when it exists (minted and not burned) at the block. */
  nft(tokenId: bigint, serial: bigint): Promise<NftRow | undefined> {
    return this.once(`nft ${tokenId} ${serial}`, async () => {
      const nft = await nftAt(this.reader.db, tokenId, serial, this.at);
      return nft && nft.deleted !== true ? nft : undefined;
    });
  }

  tokenAllowance(owner: bigint, spender: bigint, tokenId: bigint): Promise<bigint> {
    return this.once(`token allowance ${owner} ${spender} ${tokenId}`, () =>
      tokenAllowanceAt(this.reader.db, { owner, spender, tokenId }, this.at),
    );
  }

  approvedForAll(owner: bigint, spender: bigint, tokenId: bigint): Promise<boolean> {
    return this.once(`approved for all ${owner} ${spender} ${tokenId}`, () =>
      nftApprovedForAllAt(this.reader.db, { owner, spender, tokenId }, this.at),
    );
  }

  cryptoAllowance(owner: bigint, spender: bigint): Promise<bigint> {
    return this.once(`crypto allowance ${owner} ${spender}`, () =>
      cryptoAllowanceAt(this.reader.db, { owner, spender }, this.at),
    );
  }

  /** The highest serial minted of the NFT by the block. */
  lastSerial(tokenId: bigint): Promise<bigint> {
    return this.once(`last serial ${tokenId}`, () => nftLastSerialAt(this.reader.db, tokenId, this.at));
  }

  /** How many automatic association slots the account has used by the block. */
  autoAssociations(accountId: bigint): Promise<number> {
    return this.once(`auto associations ${accountId}`, () => autoAssociationsAt(this.reader.db, accountId, this.at));
  }

  pendingAirdrop(key: AirdropKey): Promise<bigint | undefined> {
    return this.once(`airdrop ${key.sender} ${key.receiver} ${key.tokenId} ${key.serial}`, () =>
      pendingAirdropAt(this.reader.db, key, this.at),
    );
  }

  /**
   * Files 0.0.112 (the exchange rate) and 0.0.111 (the fee schedule) at the block, in one statement: a priced write
   * needs both.
   */
  private feeFiles(): Promise<(SystemFile | undefined)[]> {
    const load = () =>
      loadSystemFiles(this.reader.db, [exchangeRateFile(this.reader), feeScheduleFile(this.reader)], {
        empty: false,
        lower: 0n,
        upper: this.at ?? 2n ** 63n - 1n,
      });
    return this.once('fee files', () =>
      this.at === undefined ? this.reader.latest.feeFiles.get('fee files', load) : load(),
    );
  }

  exchangeRate(): Promise<ExchangeRate> {
    return this.feeFiles().then(([rate]) => exchangeRateOf(rate, this.reader.block));
  }

  feeSchedule(): Promise<FeeSchedule> {
    return this.once('fee schedule', () =>
      this.feeFiles().then(([, schedule]) => feeScheduleOf(schedule, this.reader.block)),
    );
  }
}

const sessions = new WeakMap<LedgerReader, LedgerReads>();

/** The reads of the reader's session. */
export function ledgerReads(reader: LedgerReader): LedgerReads {
  let reads = sessions.get(reader);
  if (!reads) {
    reads = new LedgerReads(reader);
    sessions.set(reader, reads);
  }
  return reads;
}
