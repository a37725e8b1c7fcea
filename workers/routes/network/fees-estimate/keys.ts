import { type Fields, messageField, oneofMember, readFields, repeatedMessages, WireError } from './wire.ts';

// Key: the oneof members
const CONTRACT_ID = 1;
const ED25519 = 2;
const RSA_3072 = 3;
const ECDSA_384 = 4;
const THRESHOLD_KEY = 5;
const KEY_LIST = 6;
const ECDSA_SECP256K1 = 7;
const DELEGATABLE_CONTRACT_ID = 8;
const KEY_MEMBERS = [
  CONTRACT_ID,
  ED25519,
  RSA_3072,
  ECDSA_384,
  THRESHOLD_KEY,
  KEY_LIST,
  ECDSA_SECP256K1,
  DELEGATABLE_CONTRACT_ID,
];
// ThresholdKey.keys, KeyList.keys
const THRESHOLD_KEYS = 2;
const LIST_KEYS = 1;

/** Deeper nesting than any key a node accepts; it bounds the recursion on hostile bodies. */
const MAX_DEPTH = 50;

/**
 * The simple keys in a key, as the consensus node counts them for the KEYS extra: an ED25519, ECDSA (secp256k1 or
 * P-384) key counts one, threshold keys and key lists the sum of their members, anything else (contract ids, RSA)
 * nothing.
 */
function countKeys(key: Fields, depth = 0): bigint {
  if (depth > MAX_DEPTH) throw new WireError('key nested too deeply');
  const member = oneofMember(key, KEY_MEMBERS);
  if (!member) return 0n;
  switch (member.number) {
    case ED25519:
    case ECDSA_384:
    case ECDSA_SECP256K1:
      return 1n;
    case THRESHOLD_KEY:
    case KEY_LIST: {
      if (member.value.wire !== 2) throw new WireError('wrong wire type');
      const outer = readFields(member.value.bytes);
      const list = member.number === KEY_LIST ? outer : messageField(outer, THRESHOLD_KEYS);
      return list ? countKeyList(list, depth + 1) : 0n;
    }
    default:
      return 0n;
  }
}

/** The keys of a `KeyList`, each counted. */
export function countKeyList(list: Fields, depth = 0): bigint {
  let count = 0n;
  for (const key of repeatedMessages(list, LIST_KEYS)) count += countKeys(key, depth + 1);
  return count;
}

/** A key field's count, 0 when the field is absent. */
export function countKeyField(fields: Fields, number: number): bigint {
  const key = messageField(fields, number);
  return key ? countKeys(key) : 0n;
}
