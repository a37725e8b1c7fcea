import type { BlockFields } from '../../../db/queries/blocks.ts';
import { hex, int64, timestampString } from '../../format/values.ts';

/** Bytes of an EVM logs bloom filter, shown zero-padded to 512 hex digits. */
const LOGS_BLOOM_HEX_DIGITS = 512;

const withHexPrefix = (text: string) => (text.startsWith('0x') ? text : `0x${text}`);

/** One record file as the API's Block object, keys in the reference's order (the EVM fields last). */
export function formatBlock(row: BlockFields) {
  const { hapi_version_major: major, hapi_version_minor: minor, hapi_version_patch: patch } = row;
  const gasUsed = int64(row.gas_used);
  return {
    count: int64(row.count),
    hapi_version: major === null || minor === null || patch === null ? null : `${major}.${minor}.${patch}`,
    hash: withHexPrefix(row.hash),
    name: row.name,
    number: int64(row.index),
    previous_hash: withHexPrefix(row.prev_hash),
    size: row.size,
    timestamp: { from: timestampString(row.consensus_start), to: timestampString(row.consensus_end) },
    gas_used: gasUsed === -1n ? null : gasUsed,
    logs_bloom: logsBloom(row.logs_bloom),
  };
}

/** Null when absent; an empty bloom (blocks without contract logs) is just `0x`. */
function logsBloom(bytes: Uint8Array | null): string | null {
  if (bytes === null) return null;
  if (bytes.length === 0) return '0x';
  return `0x${hex(bytes).padStart(LOGS_BLOOM_HEX_DIGITS, '0')}`;
}
