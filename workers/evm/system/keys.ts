/**
 * HAPI `Key` bytes as the system contracts show them: the `KeyValue` struct of IHederaTokenService
 * (inheritAccountKey, contractId, ed25519, ECDSA_secp256k1, delegatableContractId). Only a key of one of those
 * kinds fills a field; a key list or threshold key shows as an empty KeyValue, as on the consensus node.
 */
import { fields } from '../../format/protobuf-reader.ts';
import { encodeEntityId } from '../../params/entity-id.ts';
import { longZeroAddress } from '../addresses.ts';
import { type AbiValue, address, bool, bytes, tuple } from './abi.ts';
import { ZERO_ADDRESS } from './addresses.ts';

export interface KeyValue {
  readonly contractId: Uint8Array;
  readonly ed25519: Uint8Array;
  readonly ecdsaSecp256k1: Uint8Array;
  readonly delegatableContractId: Uint8Array;
}

export const EMPTY_KEY: KeyValue = {
  contractId: ZERO_ADDRESS,
  ed25519: new Uint8Array(0),
  ecdsaSecp256k1: new Uint8Array(0),
  delegatableContractId: ZERO_ADDRESS,
};

/** The fields of the protobuf Key message, by number. */
export const KEY_CONTRACT_ID = 1;
export const KEY_ED25519 = 2;
export const KEY_THRESHOLD = 5;
export const KEY_LIST = 6;
export const KEY_ECDSA_SECP256K1 = 7;
export const KEY_DELEGATABLE_CONTRACT_ID = 8;

const ID_SHARD = 1;
const ID_REALM = 2;
const ID_NUM = 3;
const ID_EVM_ADDRESS = 4;

/** A ContractID message's address: its EVM address when it has one, else the long-zero address of its numbers. */
export function contractAddress(message: Uint8Array): Uint8Array {
  let shard = 0n;
  let realm = 0n;
  let num = 0n;
  for (const field of fields(message)) {
    if ('bytes' in field && field.number === ID_EVM_ADDRESS && field.bytes.length === 20) return field.bytes.slice();
    if (!('varint' in field)) continue;
    if (field.number === ID_SHARD) shard = field.varint;
    else if (field.number === ID_REALM) realm = field.varint;
    else if (field.number === ID_NUM) num = field.varint;
  }
  return longZeroAddress(encodeEntityId({ shard, realm, num }));
}

/** The KeyValue of stored key bytes; empty for none and for bytes that are not a Key. */
export function keyValueOf(key: Uint8Array | null | undefined): KeyValue {
  if (!key || key.length === 0) return EMPTY_KEY;
  try {
    for (const field of fields(key)) {
      if (!('bytes' in field)) continue;
      switch (field.number) {
        case KEY_CONTRACT_ID:
          return { ...EMPTY_KEY, contractId: contractAddress(field.bytes) };
        case KEY_ED25519:
          return { ...EMPTY_KEY, ed25519: field.bytes.slice() };
        case KEY_ECDSA_SECP256K1:
          return { ...EMPTY_KEY, ecdsaSecp256k1: field.bytes.slice() };
        case KEY_DELEGATABLE_CONTRACT_ID:
          return { ...EMPTY_KEY, delegatableContractId: contractAddress(field.bytes) };
      }
    }
  } catch {
    return EMPTY_KEY;
  }
  return EMPTY_KEY;
}

export const keyValueTuple = (key: KeyValue): AbiValue =>
  tuple(
    bool(false),
    address(key.contractId),
    bytes(key.ed25519),
    bytes(key.ecdsaSecp256k1),
    address(key.delegatableContractId),
  );
