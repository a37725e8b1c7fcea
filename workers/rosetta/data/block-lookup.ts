/**
 * Finding the block a request names, as the reference's block repository does (rosetta/app/persistence/block.go,
 * services/base_service.go): by index, by hash (`0x` optional), by hash checked against an index, or the latest;
 * never a block before the genesis block. One statement reads the block with the transactions asked for.
 */
import type { Context } from 'hono';
import {
  type BlockSelector,
  type RosettaBlock,
  type RosettaBlockRow,
  type RosettaTransactionRow,
  rosettaBlock,
  type TransactionSelection,
} from '../../../db/queries/rosetta-blocks.ts';
import type { AppEnv } from '../../context.ts';
import { type AccountNum, entityOf } from '../domain/entity-id.ts';
import type { BlockIdentifier } from '../domain/mesh-types.ts';
import { RosettaError } from '../errors.ts';
import type { PartialBlockIdentifier } from '../request/schemas.ts';
import type { RosettaSettings } from '../settings.ts';

/** A block below the tip never changes: its answers are kept for a year. */
export const SETTLED_MAX_AGE = 31_536_000;
/** The tip, the latest balance, the network's status: a new block comes every few seconds. */
export const TIP_MAX_AGE = 1;

/** A system account of the network's shard and realm (0.0.2 the treasury, 0.0.800 the staking reward account). */
export function systemAccount(settings: RosettaSettings, num: bigint): AccountNum {
  const id = entityOf(settings.shard, settings.realm, num);
  if (!id) throw new Error(`no system account ${num} in shard ${settings.shard} realm ${settings.realm}`);
  return id;
}

const TREASURY = 2n;

/** `SafeRemoveHexPrefix`: a lowercase `0x` removed, anything else kept as given. */
export const withoutHexPrefix = (text: string): string => (text.startsWith('0x') ? text.slice(2) : text);

export interface FoundBlock {
  readonly block: RosettaBlockRow;
  /** The genesis block is its own parent; any other block's parent is the one before it. */
  readonly parent: BlockIdentifier;
  readonly transactions: RosettaTransactionRow[];
  /** How long an answer about this block may be kept. */
  readonly maxAge: number;
}

/**
 * What a partial block identifier selects, and the index a hash must have; `InvalidArgument` for an empty hash or a
 * negative index (which the SDK's checks refuse first, except on `/account/all-balances`).
 */
export function selectorOf(identifier: PartialBlockIdentifier | undefined): {
  selector: BlockSelector;
  index?: bigint;
} {
  if (identifier?.hash !== undefined) {
    const hash = withoutHexPrefix(identifier.hash);
    if (hash === '') throw RosettaError.of('InvalidArgument');
    return { selector: { kind: 'hash', hash }, ...(identifier.index !== undefined ? { index: identifier.index } : {}) };
  }
  if (identifier?.index !== undefined) {
    if (identifier.index < 0n) throw RosettaError.of('InvalidArgument');
    return { selector: { kind: 'index', index: identifier.index } };
  }
  return { selector: { kind: 'latest' } };
}

export const treasuryOf = (settings: RosettaSettings): bigint => systemAccount(settings, TREASURY).encoded;

/**
 * The block a statement found, checked: `NodeIsStarting` before the genesis block is known, `BlockNotFound` for a
 * block past the tip, before genesis, or whose hash and index disagree.
 */
export function checkedBlock(
  found: Omit<RosettaBlock, 'transactions'>,
  index: bigint | undefined,
): Omit<FoundBlock, 'transactions'> {
  if (!found.genesis) throw RosettaError.of('NodeIsStarting');
  const { block } = found;
  if (!block || (index !== undefined && BigInt(block.index) !== index)) throw RosettaError.of('BlockNotFound');
  if (BigInt(block.consensus_start) > BigInt(block.consensus_end)) throw RosettaError.of('StartMustNotBeAfterEnd');
  const parent =
    block.index === found.genesis.index
      ? blockIdentifier(block)
      : blockIdentifier({ index: String(BigInt(block.index) - 1n), hash: block.prev_hash });
  return { block, parent, maxAge: block.has_next ? SETTLED_MAX_AGE : TIP_MAX_AGE };
}

/** The block `identifier` names (the latest when it names none), with the transactions `selection` asks for. */
export async function findBlock(
  c: Context<AppEnv>,
  settings: RosettaSettings,
  identifier: PartialBlockIdentifier | undefined,
  selection: TransactionSelection,
): Promise<FoundBlock> {
  const { selector, index } = selectorOf(identifier);
  const found = await rosettaBlock(c.get('db'), selector, selection, treasuryOf(settings));
  return { ...checkedBlock(found, index), transactions: found.transactions };
}

/** The genesis block and the latest, for `/network/status`. */
export async function genesisAndLatest(
  c: Context<AppEnv>,
  settings: RosettaSettings,
): Promise<{ genesis: BlockIdentifier; latest: RosettaBlockRow }> {
  const found = await rosettaBlock(c.get('db'), { kind: 'latest' }, 'none', treasuryOf(settings));
  if (!found.genesis) throw RosettaError.of('NodeIsStarting');
  if (!found.block) throw RosettaError.of('BlockNotFound');
  return { genesis: blockIdentifier(found.genesis), latest: found.block };
}

/** A block's identifier on the wire: its index and `0x` and its hash. */
export const blockIdentifier = (block: { index: string; hash: string }): BlockIdentifier => ({
  index: BigInt(block.index),
  hash: `0x${withoutHexPrefix(block.hash)}`,
});

/** A block's timestamp on the wire: its start in milliseconds. */
export const blockTimestamp = (block: RosettaBlockRow): bigint => BigInt(block.consensus_start) / 1_000_000n;
