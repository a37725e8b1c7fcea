/**
 * Request bodies decoded as Go's encoding/json decodes them into the Mesh SDK's request structs, guided by the zod
 * schema of the request: a `goStruct` is a Go struct (fields matched by their JSON name, exactly or else ignoring
 * case; unknown fields ignored), an optional member a pointer (`null` or absent: nil), any other member a value that
 * keeps its zero value (`""`, `0`, `false`) when absent or `null`. A value of the wrong JSON type is the decoder's
 * `json: cannot unmarshal <kind> into Go struct field <Struct>.<path> of type <type>`; like Go, decoding goes on and
 * the first such error is the answer. The result is then parsed by the same schema, which types it.
 */
import { z } from 'zod';
import { goHexDecode } from './hex.ts';
import type { JsonNode } from './scanner.ts';

/** A body that parses but does not decode into the request's struct, with Go's message. */
export class GoDecodeError extends Error {
  override readonly name = 'GoDecodeError';
}

/** Go's `UnmarshalTypeError`, before its message is made. */
interface GoTypeError {
  readonly value: string;
  readonly type: string;
  /** The Go name of the struct whose field held the value (empty: an anonymous struct or the top). */
  readonly struct: string;
  /** The JSON names of the fields from the top of the decoder that met it. */
  readonly path: readonly string[];
}

/** An error that stops the decoder at once: one a type's own `UnmarshalJSON` returned. */
class Abort extends Error {
  readonly error: GoTypeError | string;

  constructor(error: GoTypeError | string) {
    super(typeof error === 'string' ? error : 'type error');
    this.error = error;
  }
}

const typeErrorMessage = (error: GoTypeError): string =>
  error.struct === '' && error.path.length === 0
    ? `json: cannot unmarshal ${error.value} into Go value of type ${error.type}`
    : `json: cannot unmarshal ${error.value} into Go struct field ${error.struct}.${error.path.join('.')} of type ${error.type}`;

/**
 * A Mesh type with its own `UnmarshalJSON` (PublicKey, SigningPayload, Signature): it decodes itself into an
 * anonymous struct of `outer` fields (the hex strings) embedding the type as `Alias`, then decodes the hex. An error
 * inside stops the whole request; the decoder above it names it from where it stands (its struct, its path, then the
 * path inside: `hex_bytes`, or `Alias.curve_type` for a field of the embedded type). `type` is how Go prints the
 * anonymous struct, for a value that is not an object at all.
 */
export interface GoCustom {
  readonly type: string;
  readonly outer: readonly string[];
  /** The outer fields holding hex, decoded as `hex.DecodeString` decodes them. */
  readonly hex: readonly string[];
}

/** A Go struct with its own `UnmarshalJSON` of the kind `GoCustom` describes. */
export function goCustomStruct<Shape extends z.ZodRawShape>(name: string, custom: GoCustom, shape: Shape) {
  return z.object(shape).meta({ go: `types.${name}`, goCustom: custom });
}

/** A Go struct of the Mesh SDK's `types` package, named for the decoder's messages. */
export function goStruct<Shape extends z.ZodRawShape>(name: string, shape: Shape) {
  return z.object(shape).meta({ go: `types.${name}` });
}

/** A Go slice (`[]*types.Currency`), named for the decoder's messages. */
export function goSlice<Element extends z.ZodType>(goType: string, element: Element) {
  return z.array(element).meta({ go: goType });
}

/** `map[string]interface{}`: any JSON object; numbers in it are float64, as in Go. */
export const goMap = z.record(z.string(), z.unknown());

/** `int64`, kept exact as a bigint. */
export const goInt64 = z.bigint();

/** `int32`. */
export const goInt32 = z.int32();

type Json = JsonNode;

interface Context {
  /** The Go name of the struct whose field is being decoded (`PartialBlockIdentifier`), empty at the top. */
  struct: string;
  /** The JSON names of the fields from the top (`block_identifier.index`). */
  fields: string[];
  /** The first type error met, which is what Go's decoder returns. */
  error?: GoTypeError;
}

const goName = (schema: z.ZodType): string | undefined => (schema.meta() as { go?: string } | undefined)?.go;
const goCustomOf = (schema: z.ZodType): GoCustom | undefined =>
  (schema.meta() as { goCustom?: GoCustom } | undefined)?.goCustom;

/** The Go type of a schema node as Go's `reflect.Type.String()` prints it. */
function goTypeOf(schema: z.ZodType): string {
  const named = goName(schema);
  if (named !== undefined) return named;
  if (schema instanceof z.ZodString) return 'string';
  if (schema instanceof z.ZodBigInt) return 'int64';
  if (schema instanceof z.ZodNumber) return schema.format === 'int32' ? 'int32' : 'float64';
  if (schema instanceof z.ZodBoolean) return 'bool';
  if (schema instanceof z.ZodRecord) return 'map[string]interface {}';
  return 'interface {}';
}

const kindOf = (node: Json): string => (node.kind === 'null' ? 'null' : node.kind);

function typeError(ctx: Context, value: string, schema: z.ZodType): void {
  if (ctx.error !== undefined) return;
  ctx.error = { value, type: goTypeOf(schema), struct: ctx.struct, path: [...ctx.fields] };
}

/** Go's case folding of field names: ASCII letters, plus the two runes that fold to them (ſ, K). */
const fold = (name: string): string =>
  name
    .replace(/\u017f/g, 's')
    .replace(/\u212a/g, 'k')
    .toLowerCase();

/** A JSON value as Go holds it in an `interface{}`: objects with their keys sorted (as Go marshals maps again). */
function anyValue(node: Json, ctx: Context): unknown {
  switch (node.kind) {
    case 'object': {
      const entries = new Map<string, unknown>();
      for (const [key, value] of node.members) entries.set(key, anyValue(value, ctx));
      return Object.fromEntries([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    case 'array':
      return node.items.map((item) => anyValue(item, ctx));
    case 'number': {
      const value = Number(node.text);
      if (!Number.isFinite(value)) typeError(ctx, `number ${node.text}`, z.number());
      return value;
    }
    case 'string':
    case 'bool':
      return node.value;
    case 'null':
      return null;
  }
}

function zeroOf(schema: z.ZodType): unknown {
  if (schema instanceof z.ZodString) return '';
  if (schema instanceof z.ZodBigInt) return 0n;
  if (schema instanceof z.ZodNumber) return 0;
  if (schema instanceof z.ZodBoolean) return false;
  return undefined;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

function integer(text: string, min: bigint, max: bigint): bigint | undefined {
  if (!/^-?\d+$/.test(text)) return undefined;
  const value = BigInt(text);
  return value < min || value > max ? undefined : value;
}

/** Decodes `node` into the Go value `schema` describes; `undefined` is a nil pointer, slice or map. */
function decodeValue(schema: z.ZodType, node: Json, ctx: Context): unknown {
  const pointer = schema instanceof z.ZodOptional;
  const target = pointer ? (schema.unwrap() as z.ZodType) : schema;
  if (node.kind === 'null') return pointer ? undefined : zeroOf(target);
  if (target instanceof z.ZodObject) {
    const custom = goCustomOf(target);
    if (custom) return decodeCustom(target, custom, node, ctx);
    if (node.kind !== 'object') return typeError(ctx, kindOf(node), target);
    return decodeStruct(target, node.members, ctx);
  }
  if (target instanceof z.ZodArray) {
    if (node.kind !== 'array') return typeError(ctx, kindOf(node), target);
    return node.items.map((item) => decodeValue(target.element as z.ZodType, item, ctx));
  }
  if (target instanceof z.ZodRecord) {
    if (node.kind !== 'object') return typeError(ctx, kindOf(node), target);
    return anyValue(node, ctx);
  }
  if (target instanceof z.ZodString) {
    if (node.kind === 'string') return node.value;
  } else if (target instanceof z.ZodBoolean) {
    if (node.kind === 'bool') return node.value;
  } else if (target instanceof z.ZodBigInt || target instanceof z.ZodNumber) {
    if (node.kind === 'number') {
      const int32 = target instanceof z.ZodNumber;
      const value = int32 ? integer(node.text, -(2n ** 31n), 2n ** 31n - 1n) : integer(node.text, INT64_MIN, INT64_MAX);
      if (value === undefined) {
        typeError(ctx, `number ${node.text}`, target);
        return zeroOf(target);
      }
      return int32 ? Number(value) : value;
    }
  } else {
    return anyValue(node, ctx);
  }
  typeError(ctx, kindOf(node), target);
  return pointer ? undefined : zeroOf(target);
}

/**
 * A type with its own `UnmarshalJSON` (`GoCustom`): decoded by a decoder of its own, whose first error, or a hex
 * string that does not decode, stops the request. Its fields in the messages are named as Go names them: an outer
 * field by its JSON name, a field of the embedded type after `Alias`.
 */
function decodeCustom(schema: z.ZodObject, custom: GoCustom, node: Json, ctx: Context): unknown {
  const rethrow = (error: GoTypeError | string): never => {
    throw new Abort(
      typeof error === 'string' ? error : { ...error, struct: ctx.struct, path: [...ctx.fields, ...error.path] },
    );
  };
  if (node.kind !== 'object') return rethrow({ value: kindOf(node), type: custom.type, struct: '', path: [] });
  const inner: Context = { struct: '', fields: [] };
  let value: Record<string, unknown>;
  try {
    value = decodeStruct(schema, node.members, inner, (field) =>
      custom.outer.includes(field) ? [field] : ['Alias', field],
    ) as Record<string, unknown>;
  } catch (error) {
    if (error instanceof Abort) return rethrow(error.error);
    throw error;
  }
  if (inner.error) return rethrow(inner.error);
  for (const field of custom.hex) {
    const decoded = goHexDecode((value[field] as string | undefined) ?? '');
    if (typeof decoded === 'string') rethrow(decoded);
  }
  return value;
}

function decodeStruct(
  schema: z.ZodObject,
  members: readonly (readonly [string, Json])[],
  ctx: Context,
  pathOf: (field: string) => readonly string[] = (field) => [field],
): unknown {
  const shape = schema.shape as Record<string, z.ZodType>;
  const names = Object.keys(shape);
  const struct: Record<string, unknown> = {};
  for (const name of names) {
    const zero = zeroOf(shape[name] as z.ZodType);
    if (zero !== undefined) struct[name] = zero;
  }
  const structName = (goName(schema) ?? '').replace(/^.*\./, '');
  for (const [key, value] of members) {
    const field = names.includes(key) ? key : names.find((name) => fold(name) === fold(key));
    if (field === undefined) continue;
    const saved = { struct: ctx.struct, depth: ctx.fields.length };
    ctx.struct = structName;
    ctx.fields.push(...pathOf(field));
    const decoded = decodeValue(shape[field] as z.ZodType, value, ctx);
    ctx.struct = saved.struct;
    ctx.fields.length = saved.depth;
    if (decoded === undefined) delete struct[field];
    else struct[field] = decoded;
  }
  return struct;
}

/**
 * The request `node` holds, decoded into the struct `schema` describes and typed by it; `null` for a JSON `null`
 * (Go's nil request, which the Mesh SDK's checks refuse in their own words). Throws a `GoDecodeError` with Go's
 * message when a value has the wrong type.
 */
export function decodeGo<Schema extends z.ZodObject>(schema: Schema, node: JsonNode): z.output<Schema> | null {
  if (node.kind === 'null') return null;
  const ctx: Context = { struct: '', fields: [] };
  let value: unknown;
  try {
    value = decodeValue(schema, node, ctx);
  } catch (error) {
    if (!(error instanceof Abort)) throw error;
    throw new GoDecodeError(typeof error.error === 'string' ? error.error : typeErrorMessage(error.error));
  }
  if (ctx.error !== undefined) throw new GoDecodeError(typeErrorMessage(ctx.error));
  return schema.parse(value);
}
