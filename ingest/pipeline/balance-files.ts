/**
 * Account balance files beside the record stream, in their place in it: a balance file is written once every record
 * file that starts at or before its time is written — before the first record file that starts after it, or at once
 * when found later — so the balances it carries are the state between those two files (the genesis file of a
 * network before its first block). The reference importer downloads them on their own schedule and applies the first
 * one to current balances once the record stream has reached it; writing it at its place gives the same rows without
 * a window in which current balances lack it.
 *
 * Which files, as the importer's settings say (`hiero.mirror.importer.downloader.balance.*`): with `enabled` false,
 * its default, only until the database holds an `account_balance_file` row (the first balance file, unless a
 * historical snapshot came first); with `enabled` true, every one. The source is listed at most every `frequency`
 * (30 s), on the first look of a run, and before the first record file of an empty database.
 */
import type pg from 'pg';
import type { TableSchema } from '../sink/schema.ts';
import type { BalanceStreamSource, PendingBalanceFile } from '../sources/balance-stream-source.ts';
import type { ConsensusOptions } from '../verify/consensus.ts';
import { RejectedFileError } from '../verify/errors.ts';
import type { NodeKeys } from '../verify/node-keys.ts';
import { verifyBalanceFile } from './verify-balance-file.ts';
import { type Log, writeBalanceFile } from './write-balance-file.ts';

export interface BalanceFileSettings {
  /** `hiero.mirror.importer.downloader.balance.enabled`: every balance file, not only the first. */
  readonly downloaderEnabled: boolean;
  /** `hiero.mirror.importer.downloader.balance.frequency`, in milliseconds. */
  readonly frequencyMs: number;
}

export const DEFAULT_BALANCE_FILE_SETTINGS: BalanceFileSettings = { downloaderEnabled: false, frequencyMs: 30_000 };

/** What the record loop does next: go on, or wait for the signature files of a balance file that comes first. */
export type BalanceStep = 'continue' | 'wait';

export class BalanceFiles {
  private readonly source: BalanceStreamSource;
  private readonly schema: TableSchema;
  private readonly settings: BalanceFileSettings;
  private readonly log: Log;
  private readonly consensus: ConsensusOptions | undefined;
  private readonly signatureWaitMs: number;
  private pending: PendingBalanceFile[] = [];
  /** With the downloader off: the database holds a balance file, so no more are read. */
  private finished = false;
  private listedAt = Number.NEGATIVE_INFINITY;
  /** The file whose signature files are awaited, and since when (epoch ms). */
  private awaited: { name: string; sinceMs: number } | undefined;

  constructor(options: {
    source: BalanceStreamSource;
    schema: TableSchema;
    settings?: BalanceFileSettings;
    log: Log;
    consensus?: ConsensusOptions;
    signatureWaitMs: number;
  }) {
    this.source = options.source;
    this.schema = options.schema;
    this.settings = options.settings ?? DEFAULT_BALANCE_FILE_SETTINGS;
    this.log = options.log;
    this.consensus = options.consensus;
    this.signatureWaitMs = options.signatureWaitMs;
  }

  /** Lists the source again when `frequency` has passed, a file's signatures are awaited, or `now`. */
  async refresh(client: pg.ClientBase, now = false): Promise<void> {
    if (this.finished) return;
    if (!now && !this.awaited && Date.now() - this.listedAt < this.settings.frequencyMs) return;
    this.listedAt = Date.now();
    const newest = await client.query<{ name: string }>(
      'select name from account_balance_file order by consensus_timestamp desc limit 1',
    );
    const last = newest.rows[0]?.name;
    if (last !== undefined && !this.settings.downloaderEnabled) {
      this.finished = true;
      this.pending = [];
      return;
    }
    this.pending = await this.source.nextFiles(last);
  }

  /** Whether a listed balance file belongs before a record file starting at `recordStart`. */
  dueBefore(recordStart: bigint): boolean {
    return this.pending.some((file) => file.instant < recordStart);
  }

  /**
   * Verifies and writes, oldest first, the listed files whose time is before `recordStart` or not after `recordEnd`
   * (the newest written record file's end). A file that fails verification is logged and passed over, as the
   * importer passes over a group that does not verify; one whose missing signature files could still make it pass
   * is waited for (`wait`), for `signatureWaitMs` at most unless `untilIdle`.
   */
  async writeDue(
    client: pg.ClientBase,
    keys: NodeKeys,
    bounds: { recordStart?: bigint; recordEnd?: bigint; untilIdle?: boolean },
  ): Promise<BalanceStep> {
    while (!this.finished) {
      const file = this.pending[0];
      if (!file) break;
      const due =
        (bounds.recordStart !== undefined && file.instant < bounds.recordStart) ||
        (bounds.recordEnd !== undefined && file.instant <= bounds.recordEnd);
      if (!due) break;
      try {
        const verified = await verifyBalanceFile(this.source.store, file, keys, this.consensus);
        const outcome = await writeBalanceFile(client, this.schema, verified, this.log);
        if (outcome === 'written' && !this.settings.downloaderEnabled) this.finished = true;
      } catch (error) {
        if (!(error instanceof RejectedFileError)) throw error;
        if (this.awaited?.name !== file.name) this.awaited = { name: file.name, sinceMs: Date.now() };
        const waitedMs = Date.now() - this.awaited.sinceMs;
        if (error.signaturesPending && !bounds.untilIdle && waitedMs < this.signatureWaitMs) {
          this.log({ msg: 'waiting for signature files', level: 'debug', file: file.name, reason: error.reason });
          return 'wait';
        }
        this.log({ msg: 'balance file rejected', level: 'error', file: file.name, reason: error.reason });
      }
      this.awaited = undefined;
      this.pending.shift();
    }
    if (this.finished) this.pending = [];
    return 'continue';
  }
}
