import { z } from 'zod';
import { bytesFromHex } from '../../../../db/bytea.ts';
import { encodeEntityId } from '../../../params/entity-id.ts';
import type { ErrorReply } from '../call/call-errors.ts';
import { badRequest } from '../call/call-errors.ts';

/** Which transaction to replay: a 32-byte Ethereum hash, or a transaction id (payer and valid start). */
export type TransactionRef =
  | { readonly kind: 'hash'; readonly hash: Uint8Array; readonly text: string }
  | { readonly kind: 'id'; readonly payer: bigint; readonly validStartNs: bigint; readonly text: string };

const HASH = /^(?:0x)?([0-9A-Fa-f]{64})$/;
const TRANSACTION_ID = /^(\d+)\.(\d+)\.(\d+)-(\d{1,19})-(\d{1,9})$/;
/** A valid start beyond this many nanoseconds is clamped, as the reference converts it (`convertToNanosMax`). */
const MAX_NANOS = 2n ** 63n - 1n;
const MAX_SHARD = 1023n;
const MAX_REALM = 65_535n;
const MAX_NUM = 274_877_906_943n;

export type Parsed<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ErrorReply };

const unsupported = (text: string): Parsed<never> => ({
  ok: false,
  error: badRequest([`Unsupported ID format: '${text}'`]),
});

/** The path's `transactionIdOrHash`, with the reference's 400s for blank and unsupported text. */
export function parseTransactionRef(text: string): Parsed<TransactionRef> {
  if (text.trim() === '') return { ok: false, error: badRequest(['Missing transaction ID or hash']) };
  const hash = HASH.exec(text);
  if (hash?.[1]) return { ok: true, value: { kind: 'hash', hash: bytesFromHex(hash[1]), text } };
  const id = TRANSACTION_ID.exec(text);
  if (!id) return unsupported(text);
  const [shard, realm, num, seconds, nanos] = id.slice(1).map((part) => BigInt(part ?? '0')) as [
    bigint,
    bigint,
    bigint,
    bigint,
    bigint,
  ];
  if (shard > MAX_SHARD || realm > MAX_REALM || num > MAX_NUM) return unsupported(text);
  const validStartNs = seconds * 1_000_000_000n + nanos;
  return {
    ok: true,
    value: {
      kind: 'id',
      payer: encodeEntityId({ shard, realm, num }),
      validStartNs: validStartNs > MAX_NANOS ? MAX_NANOS : validStartNs,
      text,
    },
  };
}

/** Spring's boolean conversion of a request parameter. */
const springBoolean = z
  .string()
  .transform((text) => text.trim().toLowerCase())
  .pipe(z.enum(['true', 'false', 'on', 'off', 'yes', 'no', '1', '0']))
  .transform((text) => text === 'true' || text === 'on' || text === 'yes' || text === '1');

/** The `stack` (default true), `memory` and `storage` (default false) switches. */
export function parseTraceOptions(
  query: (name: string) => string | undefined,
): Parsed<{ stack: boolean; memory: boolean; storage: boolean }> {
  const read = (name: string, fallback: boolean): boolean | string => {
    const text = query(name);
    if (text === undefined) return fallback;
    const parsed = springBoolean.safeParse(text);
    return parsed.success ? parsed.data : `Failed to convert '${name}' with value: '${text}'`;
  };
  const stack = read('stack', true);
  const memory = read('memory', false);
  const storage = read('storage', false);
  const failures = [stack, memory, storage].filter((value): value is string => typeof value === 'string');
  if (failures.length > 0) return { ok: false, error: badRequest(failures) };
  return { ok: true, value: { stack: stack === true, memory: memory === true, storage: storage === true } };
}
