import type { Context } from 'hono';
import type { z } from 'zod';
import type { AppEnv } from '../../context.ts';
import { RosettaError } from '../errors.ts';
import { decodeGo, GoDecodeError } from '../go-json/decode.ts';
import { GoSyntaxError, scanJson } from '../go-json/scanner.ts';

type Decoded = { ok: true; value: unknown } | { ok: false; error: RosettaError };

/** Each request's body decoded once: the edge cache keys on it before the route reads it. */
const decodedBodies = new WeakMap<Request, Decoded>();

/**
 * The body's bytes. One the runtime cannot read to its end (a truncated or badly chunked body) is what Go's
 * decoder meets as a stream that ends inside the value: `unexpected EOF`.
 */
async function bodyBytes(c: Context<AppEnv>): Promise<Uint8Array> {
  try {
    return new Uint8Array(await c.req.arrayBuffer());
  } catch {
    throw new GoSyntaxError('unexpected EOF');
  }
}

async function decode(c: Context<AppEnv>, schema: z.ZodObject): Promise<Decoded> {
  const known = decodedBodies.get(c.req.raw);
  if (known) return known;
  let decoded: Decoded;
  try {
    const node = scanJson(await bodyBytes(c));
    const value = decodeGo(schema, node);
    // The SDK's checks refuse a nil request first: `BlockRequest is nil`.
    const name = ((schema.meta() as { go?: string } | undefined)?.go ?? '').replace(/^.*\./, '');
    decoded = value === null ? { ok: false, error: RosettaError.request(`${name} is nil`) } : { ok: true, value };
  } catch (error) {
    if (!(error instanceof GoSyntaxError || error instanceof GoDecodeError)) throw error;
    decoded = { ok: false, error: RosettaError.request(error.message) };
  }
  decodedBodies.set(c.req.raw, decoded);
  return decoded;
}

/**
 * The request body as the reference's server reads it into `schema`'s struct: a body that does not parse or does
 * not fit answers Go's decoder message, a JSON `null` the SDK's `<Request> is nil`, both as code 0 (the Mesh
 * SDK's own errors, which the reference answers before its services run).
 */
export async function readRequest<Schema extends z.ZodObject>(
  c: Context<AppEnv>,
  schema: Schema,
): Promise<z.output<Schema>> {
  const decoded = await decode(c, schema);
  if (!decoded.ok) throw decoded.error;
  return decoded.value as z.output<Schema>;
}

/** The decoded request, or undefined when the body does not decode into `schema` (for cache keys). */
export async function decodedRequest(c: Context<AppEnv>, schema: z.ZodObject): Promise<unknown> {
  const decoded = await decode(c, schema);
  return decoded.ok ? decoded.value : undefined;
}
