import { type BlockSpec, BlockSpecError, LATEST, parseBlockSpec } from './block-spec.ts';
import { JsonNumber, type JsonValue, readJson } from './jackson-json.ts';

/**
 * The body as the reference's request class receives it from Jackson: the known properties with Jackson's scalar
 * coercions (a number where a string is expected is its text, `"5"` where a long is expected is 5, null on a
 * primitive is its zero, a fraction is truncated), unknown properties ignored. Validation of the values comes after
 * (schemas.ts), as bean validation does in the reference.
 */
export interface RawCallRequest {
  block: BlockSpec;
  data: string | undefined;
  estimate: boolean;
  from: string | undefined;
  gas: bigint;
  gasPrice: bigint;
  to: string | undefined;
  value: bigint;
}

export type BodyResult = { ok: true; request: RawCallRequest } | { ok: false; detail: string };

const REQUEST_CLASS = 'org.hiero.mirror.web3.viewmodel.ContractCallRequest';

/**
 * A body the runtime could not read to its end (a bad chunk size, a truncated chunked body, a Content-Length longer
 * than what arrived): Spring's message for the I/O error it meets reading it.
 */
export const UNREADABLE_BODY = 'I/O error while reading input message';

/** Spring's text for a body that is empty (or the JSON `null`), naming the handler method the body was meant for. */
export const MISSING_BODY =
  'Required request body is missing: org.hiero.mirror.web3.viewmodel.ContractCallResponse ' +
  'org.hiero.mirror.web3.controller.ContractController.call(' +
  `${REQUEST_CLASS},jakarta.servlet.http.HttpServletResponse)`;

const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

class CoercionError extends Error {}

function shape(value: JsonValue): string {
  if (Array.isArray(value)) return 'Array value (token `JsonToken.START_ARRAY`)';
  if (value === true) return 'Boolean value (token `JsonToken.VALUE_TRUE`)';
  if (value === false) return 'Boolean value (token `JsonToken.VALUE_FALSE`)';
  if (value instanceof JsonNumber) return 'Floating-point value (token `JsonToken.VALUE_NUMBER_FLOAT`)';
  return 'Object value (token `JsonToken.START_OBJECT`)';
}

const cannot = (type: string, value: JsonValue) =>
  new CoercionError(`Cannot deserialize value of type \`${type}\` from ${shape(value)}`);

function toText(value: JsonValue): string | undefined {
  if (value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return String(value);
  if (value instanceof JsonNumber) return value.source;
  throw cannot('java.lang.String', value);
}

const outOfRange = (text: string) =>
  new CoercionError(`Numeric value (${text}) out of range of long (${LONG_MIN} - ${LONG_MAX})`);

function toLong(value: JsonValue): bigint {
  if (value === null) return 0n;
  if (value instanceof JsonNumber) {
    // A fraction or exponent is truncated toward zero (Jackson's ACCEPT_FLOAT_AS_INT, on by default).
    const whole = value.isInteger ? BigInt(value.source) : truncate(value.source);
    if (whole < LONG_MIN || whole > LONG_MAX) throw outOfRange(value.source);
    return whole;
  }
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '') return 0n;
    if (/^[-+]?\d+$/.test(text)) {
      const whole = BigInt(text);
      if (whole >= LONG_MIN && whole <= LONG_MAX) return whole;
    }
    throw new CoercionError(
      `Cannot deserialize value of type \`long\` from String "${value}": not a valid \`long\` value`,
    );
  }
  throw cannot('long', value);
}

function truncate(source: string): bigint {
  const number = Number(source);
  if (!Number.isFinite(number) || Math.abs(number) >= 2 ** 63) throw outOfRange(source);
  return BigInt(Math.trunc(number));
}

function toBoolean(value: JsonValue): boolean {
  if (value === null) return false;
  if (typeof value === 'boolean') return value;
  if (value instanceof JsonNumber && value.isInteger) return BigInt(value.source) !== 0n;
  if (typeof value === 'string') {
    const text = value.trim();
    if (text === '' || text === 'false' || text === 'False' || text === 'FALSE') return false;
    if (text === 'true' || text === 'True' || text === 'TRUE') return true;
    throw new CoercionError(
      `Cannot deserialize value of type \`boolean\` from String "${value}": only "true"/"True"/"TRUE" or "false"/"False"/"FALSE" recognized`,
    );
  }
  throw cannot('boolean', value);
}

const BLOCK_CLASS = 'org.hiero.mirror.web3.viewmodel.BlockType';

/** Null keeps `latest` (the reference skips nulls here); a bad value fails as Jackson reports a creator's error. */
function toBlock(value: JsonValue): BlockSpec {
  try {
    return parseBlockSpec(toText(value));
  } catch (error) {
    if (!(error instanceof BlockSpecError)) throw error;
    throw new CoercionError(`Cannot construct instance of \`${BLOCK_CLASS}\`, problem: ${error.message}`);
  }
}

function rootMismatch(value: JsonValue): string {
  if (Array.isArray(value)) return `Cannot deserialize value of type \`${REQUEST_CLASS}\` from ${shape(value)}`;
  const what =
    typeof value === 'string'
      ? `String-argument constructor/factory method to deserialize from String value ('${value}')`
      : typeof value === 'boolean'
        ? `boolean/Boolean-argument constructor/factory method to deserialize from boolean value (${value})`
        : `int/Int-argument constructor/factory method to deserialize from Number value (${(value as JsonNumber).source})`;
  return `Cannot construct instance of \`${REQUEST_CLASS}\` (although at least one Creator exists): no ${what}`;
}

/** The request in the body, or the detail of the reference's 400 for it (`JSON parse error: …`, missing body). */
export function readCallRequest(body: string): BodyResult {
  if (body === '') return { ok: false, detail: MISSING_BODY };
  const json = readJson(body);
  if (!json.ok) return { ok: false, detail: `JSON parse error: ${json.message}` };
  const root = json.value;
  if (root === null) return { ok: false, detail: MISSING_BODY };
  if (typeof root !== 'object' || Array.isArray(root) || root instanceof JsonNumber) {
    return { ok: false, detail: `JSON parse error: ${rootMismatch(root)}` };
  }
  const request: RawCallRequest = {
    block: LATEST,
    data: undefined,
    estimate: false,
    from: undefined,
    gas: 15_000_000n,
    gasPrice: 0n,
    to: undefined,
    value: 0n,
  };
  try {
    // In the body's order, as Jackson reads it: the first bad property is the one reported.
    for (const [key, value] of Object.entries(root)) {
      if (key === 'block') request.block = toBlock(value);
      else if (key === 'data' || key === 'from' || key === 'to') request[key] = toText(value);
      else if (key === 'estimate') request.estimate = toBoolean(value);
      else if (key === 'gas' || key === 'gasPrice' || key === 'value') request[key] = toLong(value);
    }
  } catch (error) {
    if (error instanceof CoercionError) return { ok: false, detail: `JSON parse error: ${error.message}` };
    throw error;
  }
  return { ok: true, request };
}
