/**
 * `/account/balance`, `/account/all-balances` and `/account/coins` (rosetta/app/services/account_service.go).
 */
import type { Context } from 'hono';
import { Hono } from 'hono';
import { type RosettaBalance, rosettaBalance } from '../../../db/queries/rosetta-balances.ts';
import type { AppEnv } from '../../context.ts';
import { hex } from '../../format/values.ts';
import { parseAccountAddress } from '../domain/account-id.ts';
import { hbarAmount } from '../domain/currency.ts';
import { entityIdText, entityOfEncoded } from '../domain/entity-id.ts';
import type { Amount, BlockIdentifier } from '../domain/mesh-types.ts';
import { RosettaError } from '../errors.ts';
import {
  assertAccountIdentifier,
  assertDistinctCurrencies,
  assertNetwork,
  assertPartialBlockIdentifier,
} from '../request/asserter.ts';
import { readRequest } from '../request/read.ts';
import {
  type AccountIdentifier,
  accountBalanceRequestSchema,
  accountCoinsRequestSchema,
  allAccountBalancesRequestSchema,
  type PartialBlockIdentifier,
} from '../request/schemas.ts';
import { meshResponse } from '../respond.ts';
import { rosettaSettings } from '../settings.ts';
import { blockIdentifier, checkedBlock, selectorOf, TIP_MAX_AGE, treasuryOf } from './block-lookup.ts';

/** A serialized Key holding one ED25519 key: the only kind of key the answer names (`isEd25519PublicKey`). */
const isEd25519Key = (key: Uint8Array | null): key is Uint8Array =>
  key !== null && key.length === 34 && key[0] === 0x12 && key[1] === 0x20;

interface Balance {
  readonly block_identifier: BlockIdentifier;
  readonly balances: readonly Amount[];
  readonly metadata?: Readonly<Record<string, string>>;
  readonly maxAge: number;
}

/** `AccountBalance`: the account's hbar balance at the end of the block named (the latest when none is). */
async function accountBalance(
  c: Context<AppEnv>,
  account: AccountIdentifier,
  block: PartialBlockIdentifier | undefined,
): Promise<Balance> {
  const settings = rosettaSettings(c.get('config'));
  const parsed = parseAccountAddress(account.address, settings.shard, settings.realm);
  if (!parsed) throw RosettaError.of('InvalidAccount');
  const { selector, index } = selectorOf(block);
  const found = await rosettaBalance(
    c.get('db'),
    parsed.kind === 'id' ? { id: parsed.id.encoded } : { alias: parsed.alias },
    selector,
    treasuryOf(settings),
  );
  const checked = checkedBlock(found, index);
  const balance = found.balance as RosettaBalance;
  // Without an identifier the answer is about the latest block, whatever it is by then.
  const maxAge = block ? checked.maxAge : TIP_MAX_AGE;
  const identifier = blockIdentifier(checked.block);
  // An alias no account held then: a zero balance, before any snapshot is needed.
  if (parsed.kind === 'alias' && balance.entity_id === null) {
    return { block_identifier: identifier, balances: [hbarAmount(0n)], maxAge };
  }
  if (balance.snapshot_timestamp === null) throw RosettaError.of('NodeIsStarting');
  // A map in Go: its keys sorted.
  const metadata = {
    ...(parsed.kind === 'alias' && balance.entity_id !== null
      ? { account_id: entityIdText(entityOfEncoded(BigInt(balance.entity_id))) }
      : {}),
    ...(isEd25519Key(balance.key) ? { public_key: `0x${hex(balance.key)}` } : {}),
  };
  return {
    block_identifier: identifier,
    balances: [hbarAmount(BigInt(balance.balance))],
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    maxAge,
  };
}

export const accountRoutes = new Hono<AppEnv>()
  .post('/account/balance', async (c) => {
    const request = await readRequest(c, accountBalanceRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    assertAccountIdentifier(request.account_identifier);
    assertDistinctCurrencies(request.currencies, 'duplicate currency');
    if (request.block_identifier) assertPartialBlockIdentifier(request.block_identifier);
    const { maxAge, ...balance } = await accountBalance(
      c,
      request.account_identifier as AccountIdentifier,
      request.block_identifier,
    );
    return meshResponse(balance, maxAge);
  })
  .post('/account/all-balances', async (c) => {
    const request = await readRequest(c, allAccountBalancesRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    assertAccountIdentifier(request.account_identifier);
    assertDistinctCurrencies(request.currencies, 'currency is used multiple times');
    const { maxAge, block_identifier, balances, metadata } = await accountBalance(
      c,
      request.account_identifier as AccountIdentifier,
      request.block_identifier,
    );
    // There are no sub-accounts: the one balance is the account's.
    return meshResponse(
      { block_identifier, account_balances: [{ balances, ...(metadata ? { metadata } : {}) }] },
      maxAge,
    );
  })
  .post('/account/coins', async (c) => {
    const request = await readRequest(c, accountCoinsRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    assertAccountIdentifier(request.account_identifier);
    if (request.include_mempool) throw RosettaError.request('mempool coins not supported');
    assertDistinctCurrencies(request.currencies, 'duplicate currency');
    // Hbar is an account-based currency: there are no coins.
    throw RosettaError.of('NotImplemented');
  });
