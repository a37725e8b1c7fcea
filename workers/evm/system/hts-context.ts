/** What every HTS function needs: the token and accounts named by addresses, read at the reader's block. */
import type { ExecResult } from '@ethereumjs/evm';
import { longZeroAddress } from '../addresses.ts';
import type { EvmEntity, LedgerReader } from '../types.ts';
import type { AbiArgs } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';
import { ledgerReads } from './ledger-reads.ts';
import type { TokenState } from './token-state.ts';

export interface HtsCall {
  readonly reader: LedgerReader;
  readonly args: AbiArgs;
  readonly gasLimit: bigint;
  /** The call runs in a static frame (see frames.ts). */
  readonly isStatic: boolean;
}

export type HtsFunction = (call: HtsCall) => Promise<ExecResult>;

/** The token at `address` (long-zero or EVM address of a TOKEN entity); undefined when there is none. */
export async function tokenAt(reader: LedgerReader, address: Uint8Array): Promise<TokenState | undefined> {
  const entity = await reader.entityByAddress(address);
  if (entity?.type !== 'TOKEN') return undefined;
  return ledgerReads(reader).token(entity.id);
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
