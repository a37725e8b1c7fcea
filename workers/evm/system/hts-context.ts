/** What every HTS function needs: the token and accounts named by addresses, read at the reader's block. */
import type { EVMInterface, ExecResult } from '@ethereumjs/evm';
import { hexOfBytes } from '../../../db/bytea.ts';
import { entityIdOfLongZero, longZeroAddress } from '../addresses.ts';
import type { EvmEntity, LedgerReader } from '../types.ts';
import type { AbiArgs } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { frameCaller, frameValue, isStaticFrame, runOrigin, tokenLedgerOf } from './frames.ts';
import type { TokenLedger } from './token-ledger.ts';
import type { TokenState } from './token-state.ts';

export interface HtsCall {
  readonly reader: LedgerReader;
  readonly args: AbiArgs;
  readonly gasLimit: bigint;
  /** The call runs in a static frame (see frames.ts). */
  readonly isStatic: boolean;
  /** The run's token ledger: the ledger at the block under this run's writes. */
  readonly tokens: TokenLedger;
  /** The address that called the system contract (through a redirect proxy: the proxy's caller). */
  readonly sender: Uint8Array;
  /** The sender of the request, whose signature the transaction carries. */
  readonly origin: Uint8Array;
  /** Tinybars the call to the system contract carries. */
  readonly value: bigint;
  readonly evm: EVMInterface;
}

export type HtsFunction = (call: HtsCall) => Promise<ExecResult>;

/**
 * The token at `address` (long-zero or EVM address of a TOKEN entity, or a token created in this run); undefined
 * when there is none.
 */
export async function tokenAt(
  call: { readonly reader: LedgerReader; readonly tokens: TokenLedger },
  address: Uint8Array,
): Promise<TokenState | undefined> {
  const created = call.tokens.createdTokenAt(hexOfBytes(address));
  if (created !== undefined) return call.tokens.token(created);
  const entity = await call.reader.entityByAddress(address);
  if (entity?.type !== 'TOKEN') return undefined;
  return call.tokens.token(entity.id);
}

/** What resolves accounts: the ledger at the block and the accounts the run created. */
export type AccountSource = Pick<HtsCall, 'reader' | 'tokens'>;

/**
 * The account or contract at `address` (a hollow account a transfer of this run created included); undefined when
 * there is none (or it is another kind of entity).
 */
export async function accountAt(source: AccountSource, address: Uint8Array): Promise<EvmEntity | undefined> {
  const { reader, tokens } = source;
  const created = tokens.createdAccountAt(hexOfBytes(address));
  if (created) return created;
  const { shard, realm } = reader.settings;
  const id = entityIdOfLongZero(address, shard, realm);
  const createdById = id === undefined ? undefined : tokens.createdAccount(id);
  if (createdById) return createdById;
  const entity = await reader.entityByAddress(address);
  if (!entity || (entity.type !== 'ACCOUNT' && entity.type !== 'CONTRACT')) return undefined;
  return entity;
}

/** The address the EVM knows an account by (its EVM address when it has one); the zero address for no account. */
export async function priorityAddress(source: AccountSource, id: bigint | undefined): Promise<Uint8Array> {
  if (id === undefined || id === 0n) return ZERO_ADDRESS;
  const entity = source.tokens.createdAccount(id) ?? (await source.reader.entityById(id));
  return entity ? source.reader.canonicalAddress(entity) : longZeroAddress(id);
}

/** Everything of a system contract call but its arguments: the frame it runs in and the run's token ledger. */
export function systemCallBase(reader: LedgerReader, evm: EVMInterface, gasLimit: bigint): Omit<HtsCall, 'args'> {
  const sender = frameCaller(evm) ?? ZERO_ADDRESS;
  return {
    reader,
    gasLimit,
    isStatic: isStaticFrame(evm),
    tokens: tokenLedgerOf(evm, reader),
    sender,
    origin: runOrigin(evm) ?? sender,
    value: frameValue(evm),
    evm,
  };
}
