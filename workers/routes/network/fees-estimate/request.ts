import { ApiError } from '../../../errors.ts';
import { requestParam } from '../../../params/java/binding.ts';
import { javaBadRequest } from '../../../params/java/errors.ts';
import { lenientEnum, parseSpringInt } from '../../../params/java/numbers.ts';
import type { ServletParams } from '../../../params/java/servlet-query.ts';

/**
 * The largest body accepted: a jumbo transaction (the consensus node's `jumboTransactions.maxTxnSize`, 130 KiB),
 * the largest a node would take. Larger bodies get a 413 before they are read in full.
 */
export const MAX_BODY_BYTES = 133_120;

const PROTOBUF_TYPES = new Set(['application/protobuf', 'application/x-protobuf']);

export type EstimateMode = 'INTRINSIC' | 'STATE';

export interface EstimateParams {
  mode: EstimateMode;
  /** Basis points of the high-volume throttle's utilisation, 0 to 10000. */
  highVolumeThrottle: number;
}

/** A content type other than protobuf: 415, in Spring's words. */
export function checkContentType(header: string | undefined): void {
  const mediaType = (header ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (PROTOBUF_TYPES.has(mediaType)) return;
  const shown = header === undefined || header === '' ? 'application/octet-stream' : header;
  throw new ApiError(415, { message: 'Unsupported Media Type', detail: `Content-Type '${shown}' is not supported` });
}

const tooLarge = () =>
  new ApiError(413, { message: 'Payload Too Large', detail: `Request body exceeds ${MAX_BODY_BYTES} bytes` });

/**
 * The body, read up to the cap. An empty or missing body, and one the runtime cannot read to its end (a bad chunk
 * size, a truncated chunked body, a Content-Length longer than what arrived), is the reference's
 * `Failed to read request` (Spring's answer to any unreadable message).
 */
export async function readBody(request: Request): Promise<Uint8Array> {
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > MAX_BODY_BYTES) throw tooLarge();
  if (!request.body) throw javaBadRequest('Failed to read request');
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      throw javaBadRequest('Failed to read request');
    });
    if (done) break;
    size += value.length;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  if (size === 0) throw javaBadRequest('Failed to read request');
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.length;
  }
  return body;
}

const MODES: readonly EstimateMode[] = ['INTRINSIC', 'STATE'];

/** `mode` and `high_volume_throttle`, converted and then validated as the reference's controller does. */
export function estimateParams(params: ServletParams): EstimateParams {
  const first = (arg: string | readonly string[]) => (typeof arg === 'string' ? arg : (arg[0] ?? ''));
  const mode =
    requestParam(params, 'mode', {
      defaultValue: 'INTRINSIC',
      convert: (arg) => lenientEnum(first(arg), MODES) ?? undefined,
    }) ?? 'INTRINSIC';
  const highVolumeThrottle =
    requestParam(params, 'high_volume_throttle', {
      defaultValue: '0',
      convert: (arg) => parseSpringInt(first(arg)),
    }) ?? 0;
  if (highVolumeThrottle < 0) throw javaBadRequest('highVolumeThrottle must be greater than or equal to 0');
  if (highVolumeThrottle > 10_000) throw javaBadRequest('highVolumeThrottle must be less than or equal to 10000');
  return { mode, highVolumeThrottle };
}
