/**
 * A protobuf Key as the Go SDK reads it (`_KeyFromProtobuf`) and prints it (`String()`): a public key in its DER
 * hex, a key list `{[k1,k2]}`, a threshold key `{threshold:2,[k1,k2]}`, a contract `shard.realm.num` (or its EVM
 * address in hex). A key the SDK cannot read (RSA, ECDSA P-384, no member, a bad key inside a list) is `undefined`.
 */
import { hex } from '../../../format/values.ts';
import { ecdsaKeyFromBytes, ed25519KeyFromBytes, publicKeyDerHex } from '../keys.ts';
import type { Decoded } from './wire.ts';

/** A Key member of ED25519 or secp256k1 whose bytes are not a key: the SDK keeps an empty key, printed as `""`. */
export const EMPTY_PUBLIC_KEY = '';

function contractText(message: Decoded): string {
  const shard = BigInt.asUintN(64, (message.shardNum as bigint | undefined) ?? 0n);
  const realm = BigInt.asUintN(64, (message.realmNum as bigint | undefined) ?? 0n);
  const evm = message.evmAddress as Uint8Array | undefined;
  if (evm !== undefined && evm.length > 0) return `${shard}.${realm}.${hex(evm)}`;
  return `${shard}.${realm}.${BigInt.asUintN(64, (message.contractNum as bigint | undefined) ?? 0n)}`;
}

function listText(list: Decoded | undefined, threshold: number): string | undefined {
  if (list === undefined) return undefined;
  const keys: string[] = [];
  for (const key of (list.keys as Decoded[] | undefined) ?? []) {
    const text = sdkKeyText(key);
    if (text === undefined) return undefined;
    keys.push(text);
  }
  return `${threshold > 0 ? `{threshold:${threshold},[` : '{['}${keys.join(',')}]}`;
}

/** `String()` of the key the SDK reads from `message`, or `undefined` where it fails to read one. */
export function sdkKeyText(message: Decoded): string | undefined {
  if (message.ed25519 !== undefined) {
    const key = ed25519KeyFromBytes(message.ed25519 as Uint8Array);
    return key ? publicKeyDerHex(key) : undefined;
  }
  if (message.ECDSA_secp256k1 !== undefined) {
    const key = ecdsaKeyFromBytes(message.ECDSA_secp256k1 as Uint8Array);
    return key ? publicKeyDerHex(key) : undefined;
  }
  if (message.keyList !== undefined) return listText(message.keyList as Decoded, -1);
  if (message.thresholdKey !== undefined) {
    const threshold = message.thresholdKey as Decoded;
    return listText(threshold.keys as Decoded | undefined, (threshold.threshold as number | undefined) ?? 0);
  }
  if (message.contractID !== undefined) return contractText(message.contractID as Decoded);
  if (message.delegatableContractId !== undefined) return contractText(message.delegatableContractId as Decoded);
  return undefined;
}

/**
 * The key an account creation's body names, as the reference's parse prints it: a public-key member whose bytes are
 * not a key prints as `""` (the SDK ignores that error there and keeps an empty key); `undefined` when it has none.
 */
export function createdKeyText(message: Decoded): string | undefined {
  const text = sdkKeyText(message);
  if (text !== undefined) return text;
  return message.ed25519 !== undefined || message.ECDSA_secp256k1 !== undefined ? EMPTY_PUBLIC_KEY : undefined;
}
