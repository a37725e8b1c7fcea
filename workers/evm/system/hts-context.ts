/**
 * What every HTS function needs: the token and accounts named by addresses, read at the reader's block and cached
 * for the reader's session (an estimate runs the same call many times).
 */
import type { ExecResult } from '@ethereumjs/evm';
import { longZeroAddress } from '../addresses.ts';
import type { EvmEntity, LedgerReader } from '../types.ts';
import type { AbiArgs } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { loadToken, type TokenState } from './token-state.ts';

export interface HtsCall {
  readonly reader: LedgerReader;
  readonly args: AbiArgs;
  readonly gasLimit: bigint;
}

export type HtsFunction = (call: HtsCall) => Promise<ExecResult>;

const tokenCaches = new WeakMap<LedgerReader, Map<bigint, Promise<TokenState | undefined>>>();

function cachedToken(reader: LedgerReader, id: bigint): Promise<TokenState | undefined> {
  let cache = tokenCaches.get(reader);
  if (!cache) {
    cache = new Map();
    tokenCaches.set(reader, cache);
  }
  let token = cache.get(id);
  if (!token) {
    token = loadToken(reader, id);
    cache.set(id, token);
  }
  return token;
}

/** The token at `address` (long-zero or EVM address of a TOKEN entity); undefined when there is none. */
export async function tokenAt(reader: LedgerReader, address: Uint8Array): Promise<TokenState | undefined> {
  const entity = await reader.entityByAddress(address);
  if (entity?.type !== 'TOKEN') return undefined;
  return cachedToken(reader, entity.id);
}

/** The account or contract at `address`; undefined when there is none (or it is another kind of entity). */
export async function accountAt(reader: LedgerReader, address: Uint8Array): Promise<EvmEntity | undefined> {
  const entity = await reader.entityByAddress(address);
  if (!entity || (entity.type !== 'ACCOUNT' && entity.type !== 'CONTRACT')) return undefined;
  return entity;
}

/** The address the EVM knows an account by (its EVM address when it has one); the zero address for no account. */
export async function priorityAddress(reader: LedgerReader, id: bigint | undefined): Promise<Uint8Array> {
  if (id === undefined || id === 0n) return ZERO_ADDRESS;
  const entity = await reader.entityById(id);
  return entity ? reader.canonicalAddress(entity) : longZeroAddress(id);
}

/** The block's timestamp for history reads, or undefined at `latest`. */
export const stateTimestamp = (reader: LedgerReader): bigint | undefined =>
  reader.block.historical ? reader.block.consensusEnd : undefined;
