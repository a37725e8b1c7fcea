import { hex } from './values.ts';

export interface KeyObject {
  _type: 'ED25519' | 'ECDSA_SECP256K1' | 'ProtobufEncoded';
  key: string;
}

// A serialized HAPI Key holding one primitive key: bare, in a one-key KeyList, or in a 1-of-1 ThresholdKey.
const ED25519 = /^(1220|32240a221220|2a28080112240a221220)([0-9a-f]{64})$/;
const ECDSA_SECP256K1 = /^(3a21|32250a233a21|2a29080112250a233a21)([0-9a-f]{66})$/;
// An empty KeyList: the key that marks an entity as immutable.
const IMMUTABLE_SENTINEL = '3200';

/**
 * A stored (protobuf-serialized) key as the API shows it: the primitive key with its type when there is exactly
 * one, else the whole serialization as `ProtobufEncoded`; null for no key and for the immutable sentinel.
 */
export function keyObject(bytes: Uint8Array | null | undefined): KeyObject | null {
  if (bytes === null || bytes === undefined) return null;
  const text = hex(bytes);
  if (text === IMMUTABLE_SENTINEL) return null;
  const ed25519 = ED25519.exec(text);
  if (ed25519?.[2]) return { _type: 'ED25519', key: ed25519[2] };
  const ecdsa = ECDSA_SECP256K1.exec(text);
  if (ecdsa?.[2]) return { _type: 'ECDSA_SECP256K1', key: ecdsa[2] };
  return { _type: 'ProtobufEncoded', key: text };
}
