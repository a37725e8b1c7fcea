/**
 * What a schedule holds, in the terms the schedule service's signing and execution need: the kind of its
 * SchedulableTransactionBody and, for a CryptoTransfer, its transfers, for a TokenCreate, the token it would create.
 * Accounts and tokens are named by their long-zero addresses (an account alias by the alias's EVM address).
 */
import { fields, int64 } from '../../format/protobuf-reader.ts';
import { encodeEntityId } from '../../params/entity-id.ts';
import { longZeroAddress } from '../addresses.ts';
import type { Adjust, CryptoTransfer, NftExchange, TokenTransferList } from './crypto-transfer.ts';
import type { CreateInput } from './hts-token-create.ts';
import { contractAddress } from './keys.ts';
import { storedCreation } from './scheduled-creation.ts';
import { type ScheduledToken, scheduledToken } from './scheduled-token.ts';
import type { ScheduledUpdate } from './scheduled-update.ts';

export interface ScheduledContractCall {
  readonly kind: 'CONTRACT_CALL';
  readonly to: Uint8Array;
  readonly gas: bigint;
  /** Tinybars the call sends. */
  readonly value: bigint;
  readonly data: Uint8Array;
}

export type ScheduledBody =
  | ScheduledContractCall
  | { readonly kind: 'CRYPTO_TRANSFER'; readonly transfer: CryptoTransfer }
  | {
      readonly kind: 'TOKEN_MINT';
      readonly token: Uint8Array;
      readonly amount: bigint;
      /** The serials' metadata, for an NFT. */
      readonly metadata: readonly Uint8Array[];
    }
  | ScheduledUpdate
  /** `input`: the creation that runs when it executes. */
  | { readonly kind: 'TOKEN_CREATE'; readonly token: ScheduledToken; readonly input: CreateInput }
  /** A kind whose keys and execution are not modelled here; `field` is its SchedulableTransactionBody field. */
  | { readonly kind: 'OTHER'; readonly field: number };

/** SchedulableTransactionBody fields. */
const CONTRACT_CALL = 3;
const CRYPTO_TRANSFER = 9;
const TOKEN_CREATION = 22;
const TOKEN_MINT = 29;
/** The fields of SchedulableTransactionBody that are not the scheduled operation: its fee and memo. */
const FEE = 1;
const MEMO = 2;
const ALIAS_BYTES = 20;

const messages = (bytes: Uint8Array, number: number): Uint8Array[] =>
  [...fields(bytes)].flatMap((field) => ('bytes' in field && field.number === number ? [field.bytes] : []));

function varint(bytes: Uint8Array, number: number): bigint {
  let value = 0n;
  for (const field of fields(bytes)) if ('varint' in field && field.number === number) value = field.varint;
  return value;
}

/** An AccountID or TokenID (shard 1, realm 2, num 3; an account's alias 4) as an address. */
function addressOf(id: Uint8Array | undefined): Uint8Array {
  if (!id) return longZeroAddress(0n);
  const alias = messages(id, 4).at(-1);
  if (alias?.length === ALIAS_BYTES) return alias;
  return longZeroAddress(encodeEntityId({ shard: varint(id, 1), realm: varint(id, 2), num: varint(id, 3) }));
}

/** AccountAmount: accountID 1, amount 2 (sint64), is_approval 3. */
function adjustOf(amount: Uint8Array): Adjust {
  const raw = varint(amount, 2);
  return {
    account: addressOf(messages(amount, 1).at(-1)),
    amount: (raw >> 1n) ^ -(raw & 1n),
    approval: varint(amount, 3) === 1n,
  };
}

/** NftTransfer: sender 1, receiver 2, serial 3, is_approval 4. */
function nftOf(nft: Uint8Array): NftExchange {
  return {
    from: addressOf(messages(nft, 1).at(-1)),
    to: addressOf(messages(nft, 2).at(-1)),
    serial: int64(varint(nft, 3)),
    approval: varint(nft, 4) === 1n,
  };
}

/** ContractCallTransactionBody: contractID 1, gas 2, amount 3, functionParameters 4. */
function contractCallOf(body: Uint8Array): ScheduledContractCall {
  const contract = messages(body, 1).at(-1);
  return {
    kind: 'CONTRACT_CALL',
    to: contract ? contractAddress(contract) : longZeroAddress(0n),
    gas: int64(varint(body, 2)),
    value: int64(varint(body, 3)),
    data: messages(body, 4).at(-1) ?? new Uint8Array(),
  };
}

/** CryptoTransferTransactionBody: transfers 1 (TransferList: accountAmounts 1), tokenTransfers 2. */
function transferOf(body: Uint8Array): CryptoTransfer {
  const hbar = messages(body, 1).flatMap((list) => messages(list, 1).map(adjustOf));
  const tokens: TokenTransferList[] = messages(body, 2).map((list) => ({
    token: addressOf(messages(list, 1).at(-1)),
    adjusts: messages(list, 2).map(adjustOf),
    nfts: messages(list, 3).map(nftOf),
  }));
  return { hbar, tokens };
}

/** The scheduled operation of a SchedulableTransactionBody; OTHER (field 0) when the bytes do not parse. */
export function scheduledBodyOf(schedulable: Uint8Array): ScheduledBody {
  try {
    for (const field of fields(schedulable)) {
      if (field.number === FEE || field.number === MEMO || !('bytes' in field)) continue;
      if (field.number === CONTRACT_CALL) return contractCallOf(field.bytes);
      if (field.number === CRYPTO_TRANSFER) return { kind: 'CRYPTO_TRANSFER', transfer: transferOf(field.bytes) };
      if (field.number === TOKEN_MINT) {
        // TokenMintTransactionBody: token 1, amount 2, metadata 3.
        const mint = field.bytes;
        const token = addressOf(messages(mint, 1).at(-1));
        return { kind: 'TOKEN_MINT', token, amount: varint(mint, 2), metadata: messages(mint, 3) };
      }
      if (field.number === TOKEN_CREATION) {
        const token = scheduledToken(schedulable);
        if (token) return { kind: 'TOKEN_CREATE', token, input: storedCreation(token) };
      }
      return { kind: 'OTHER', field: field.number };
    }
  } catch {
    return { kind: 'OTHER', field: 0 };
  }
  return { kind: 'OTHER', field: 0 };
}
