/**
 * `/block` and `/block/transaction` (rosetta/app/services/block_service.go).
 */
import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import type { Block } from '../domain/mesh-types.ts';
import { meshTransactions } from '../domain/operations.ts';
import { RosettaError } from '../errors.ts';
import {
  assertBlockIdentifier,
  assertNetwork,
  assertPartialBlockIdentifier,
  assertTransactionIdentifier,
} from '../request/asserter.ts';
import { readRequest } from '../request/read.ts';
import { blockRequestSchema, blockTransactionRequestSchema } from '../request/schemas.ts';
import { meshResponse } from '../respond.ts';
import { rosettaSettings } from '../settings.ts';
import { blockIdentifier, blockTimestamp, findBlock, systemAccount, withoutHexPrefix } from './block-lookup.ts';

const STAKING_REWARD_ACCOUNT = 800n;

/** Go's `hex.DecodeString`: an even number of hex digits of either case. */
function decodeHex(text: string): Uint8Array | undefined {
  if (text.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(text)) return undefined;
  return Uint8Array.from(text.match(/../g) ?? [], (pair) => Number.parseInt(pair, 16));
}

export const blockRoutes = new Hono<AppEnv>()
  .post('/block', async (c) => {
    const request = await readRequest(c, blockRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    assertPartialBlockIdentifier(request.block_identifier);
    const { block, parent, transactions: rows, maxAge } = await findBlock(c, settings, request.block_identifier, 'all');
    const transactions = meshTransactions(rows, systemAccount(settings, STAKING_REWARD_ACCOUNT));
    // Past the cap, the rest of the block's transactions are named by hash only.
    const listed = transactions.slice(0, settings.maxTransactionsInBlock);
    const others = transactions.slice(settings.maxTransactionsInBlock).map((t) => t.transaction_identifier);
    const answer: Block = {
      block_identifier: blockIdentifier(block),
      parent_block_identifier: parent,
      timestamp: blockTimestamp(block),
      transactions: listed,
    };
    return meshResponse({ block: answer, ...(others.length > 0 ? { other_transactions: others } : {}) }, maxAge);
  })
  .post('/block/transaction', async (c) => {
    const request = await readRequest(c, blockTransactionRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    assertBlockIdentifier(request.block_identifier);
    assertTransactionIdentifier(request.transaction_identifier);
    const { index, hash } = request.block_identifier as { index: bigint; hash: string };
    // The block is looked up first: a transaction hash that is not hex matters only in a block that exists.
    const transactionHash = decodeHex(withoutHexPrefix((request.transaction_identifier as { hash: string }).hash));
    const { transactions: rows, maxAge } = await findBlock(
      c,
      settings,
      { index, hash },
      transactionHash ? { hash: transactionHash } : 'none',
    );
    if (!transactionHash) throw RosettaError.of('InvalidTransactionIdentifier');
    const [transaction] = meshTransactions(rows, systemAccount(settings, STAKING_REWARD_ACCOUNT));
    if (!transaction) throw RosettaError.of('TransactionNotFound');
    return meshResponse({ transaction }, maxAge);
  });
