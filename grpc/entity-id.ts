/**
 * Entity ids of gRPC requests, read as the reference reads them: int64 parts (protobufjs gives them as decimal
 * strings here) packed into the schema's encoded id; a part out of its range is "Invalid entity ID: s.r.n".
 */
import { encodeEntityId } from '../ingest/decode/ids.ts';
import { invalidArgument } from './status.ts';

export interface EntityIdParts {
  readonly shardNum?: string;
  readonly realmNum?: string;
  readonly [num: string]: string | undefined;
}

export function entityIdOf(parts: EntityIdParts, numField: string): bigint {
  const shard = BigInt(parts.shardNum ?? '0');
  const realm = BigInt(parts.realmNum ?? '0');
  const num = BigInt(parts[numField] ?? '0');
  try {
    return encodeEntityId(shard, realm, num);
  } catch {
    throw invalidArgument(`Invalid entity ID: ${shard}.${realm}.${num}`);
  }
}

/** A uint64 field as Java reads it: values of 2^63 and more are negative. */
export function javaLong(text: string | undefined): bigint {
  return BigInt.asIntN(64, BigInt(text ?? '0'));
}
