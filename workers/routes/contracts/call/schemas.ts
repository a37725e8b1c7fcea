import { z } from 'zod';
import type { BlockSpec } from './block-spec.ts';
import type { RawCallRequest } from './request-body.ts';

/** A validated call: hex texts without their 0x, addresses as 20 bytes. */
export interface CallRequest {
  readonly block: BlockSpec;
  /** Hex digits of the call data (or init code), possibly odd in number: decoding reports that, after the throttle. */
  readonly dataHex: string;
  readonly estimate: boolean;
  readonly from: Uint8Array | undefined;
  /** Undefined for a contract create: `to` absent, empty or the zero address. */
  readonly to: Uint8Array | undefined;
  readonly gas: bigint;
  readonly gasPrice: bigint;
  readonly value: bigint;
}

const INVALID_HEX = 'invalid hexadecimal string';
const AT_LEAST_ZERO = 'must be greater than or equal to 0';
const MUST_NOT_BE_EMPTY = 'must not be empty';
/** The reference's validator allows 1 MiB of hex digits; the executor's 131072-byte limit is checked after. */
const DATA_MAX_HEX_DIGITS = 1_048_576;

/** The reference's @Hex: an optional 0x and `min`..`max` hex digits; null passes, empty passes when allowed. */
const hex = (min: number, max: number, allowEmpty: boolean) =>
  z
    .string()
    .optional()
    .refine(
      (text) =>
        text === undefined ||
        ((min === 0 || allowEmpty) && text === '') ||
        new RegExp(`^(0x)?[0-9a-fA-F]{${min},${max}}$`).test(text),
      INVALID_HEX,
    );

/** Init code as the reference recognises it, for a value transfer without `to`. */
const INIT_BYTECODE = /(60806040|60606040)[0-9a-z]+39[0-9a-z]+f3/i;
const isInitBytecode = (data: string | undefined) =>
  data !== undefined && data.length >= 14 && INIT_BYTECODE.test(data);

const requestSchema = z
  .object({
    data: hex(0, DATA_MAX_HEX_DIGITS, false),
    from: hex(40, 40, false),
    gas: z.bigint().min(21_000n, 'must be greater than or equal to 21000'),
    gasPrice: z.bigint().min(0n, AT_LEAST_ZERO),
    to: hex(40, 40, true),
    value: z.bigint().min(0n, AT_LEAST_ZERO),
  })
  .superRefine((request, ctx) => {
    if (request.value > 0n && request.from === undefined) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: MUST_NOT_BE_EMPTY });
    }
    const toGiven = request.value <= 0n || request.from === undefined || (request.to ?? '') !== '';
    if (!toGiven && !isInitBytecode(request.data)) {
      ctx.addIssue({ code: 'custom', path: ['to'], message: MUST_NOT_BE_EMPTY });
    }
  });

const withoutPrefix = (text: string) => (text.startsWith('0x') ? text.slice(2) : text);

function address(text: string | undefined): Uint8Array | undefined {
  if (text === undefined || text === '') return undefined;
  const digits = withoutPrefix(text);
  const bytes = new Uint8Array(20);
  for (let i = 0; i < 20; i++) bytes[i] = Number.parseInt(digits.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

export type ValidationResult = { ok: true; request: CallRequest } | { ok: false; details: string[] };

/** Bean validation of the reference's request: every violated field, each as `<field> field <message>`. */
export function validateCallRequest(raw: RawCallRequest): ValidationResult {
  const result = requestSchema.safeParse(raw);
  if (!result.success) {
    return {
      ok: false,
      details: result.error.issues.map((issue) => `${String(issue.path[0])} field ${issue.message}`),
    };
  }
  const to = address(raw.to);
  return {
    ok: true,
    request: {
      block: raw.block,
      dataHex: withoutPrefix(raw.data ?? ''),
      estimate: raw.estimate,
      from: address(raw.from),
      to: to?.some((byte) => byte !== 0) ? to : undefined,
      gas: raw.gas,
      gasPrice: raw.gasPrice,
      value: raw.value,
    },
  };
}
