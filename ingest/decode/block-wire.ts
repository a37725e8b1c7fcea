/**
 * Length-delimited fields of a protobuf message as the exact bytes on the wire, for the places where a hash is
 * taken over sub-messages (wrapped record files): decoding and re-encoding would drop unknown fields or
 * reorder them and change the hash.
 */
import protobuf from 'protobufjs';
import { FormatError } from './byte-reader.ts';

/** Every length-delimited field of `message` in wire order, as `[field number, bytes]`. */
export function lengthDelimitedFields(message: Uint8Array): [number, Uint8Array][] {
  const reader = protobuf.Reader.create(message);
  const out: [number, Uint8Array][] = [];
  try {
    while (reader.pos < reader.len) {
      const tag = reader.uint32();
      if ((tag & 7) === 2) out.push([tag >>> 3, reader.bytes()]);
      else reader.skipType(tag & 7);
    }
  } catch (error) {
    throw new FormatError(`malformed protobuf: ${(error as Error).message}`);
  }
  return out;
}

/** The bytes of each occurrence of field `field`. */
export function fieldBytes(message: Uint8Array, field: number): Uint8Array[] {
  return lengthDelimitedFields(message)
    .filter(([f]) => f === field)
    .map(([, bytes]) => bytes);
}
