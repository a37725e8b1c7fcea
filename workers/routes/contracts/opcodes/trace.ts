/**
 * Runs a replay twice on one session: first to learn the outcome (`failed`, `gas`, `return_value` come before the
 * entries in the body) and the trace's size, then again with each entry written, as it is made, into a gzip stream.
 * The size is checked before anything is sent, so a trace past the cap is a 400 and not a body cut short; while
 * it is sent, the EVM waits whenever the stream is full, so memory holds one batch of entries at most
 * (docs/adr/0021-opcode-trace.md).
 */
import type { InterpreterStep } from '@ethereumjs/evm';
import { hexOfBytes } from '../../../../db/bytea.ts';
import type { Database } from '../../../../db/client.ts';
import type { EvmCaches } from '../../../evm/caches.ts';
import { openSession } from '../../../evm/session.ts';
import { OpcodeLog, type TraceOptions } from '../../../evm/trace/opcode-log.ts';
import type { CallOutcome, EvmSettings } from '../../../evm/types.ts';
import { badRequest, type ErrorReply, evmFailure } from '../call/call-errors.ts';
import type { Replay } from './replay.ts';

/** The most JSON a trace may be before compression: a 15M-gas trace with memory can be gigabytes. */
export const MAX_TRACE_BYTES = 64 * 1024 * 1024;
/** Entries are written to the stream in batches of about this many characters. */
const BATCH_CHARACTERS = 64 * 1024;

export const TRACE_TOO_LARGE = `Opcode trace exceeds ${MAX_TRACE_BYTES} bytes of JSON`;

class TraceTooLarge extends Error {}

export type TraceReply =
  | { readonly ok: true; readonly body: ReadableStream<Uint8Array> }
  | { readonly ok: false; readonly error: ErrorReply };

/** The body up to the first entry: the keys in the reference's order. */
function head(replay: Replay, outcome: CallOutcome): string {
  const address = `"address":"0x${hexOfBytes(replay.address)}"`;
  const contractId = `"contract_id":${JSON.stringify(replay.contractId)}`;
  return `{${address},${contractId},"failed":${!outcome.ok},"gas":${outcome.gasUsed},"opcodes":[`;
}

/** A failed replay has no output: its revert data is on the REVERT entry. */
const tail = (outcome: CallOutcome) => `],"return_value":"0x${outcome.ok ? hexOfBytes(outcome.output) : ''}"}`;

export async function traceReplay(
  db: Database,
  replay: Replay,
  settings: EvmSettings,
  caches: EvmCaches,
  options: TraceOptions,
  maxBytes: number = MAX_TRACE_BYTES,
): Promise<TraceReply> {
  const session = openSession({ db, block: replay.block, settings, caches });
  const sizing = new OpcodeLog(options);
  let bytes = 0;
  let steps = 0;
  let outcome: CallOutcome;
  try {
    const measure = (step: InterpreterStep) => {
      steps++;
      bytes += sizing.entryLength(step) + 1;
      if (bytes > maxBytes) throw new TraceTooLarge();
    };
    // Synchronous but for an SLOAD's read, so most steps cost the EVM no wait.
    outcome = await session.run(replay.transaction, (step) => {
      const read = sizing.observe(step);
      if (read) return read.then(() => measure(step));
      measure(step);
      return undefined;
    });
  } catch (error) {
    if (error instanceof TraceTooLarge) return { ok: false, error: badRequest([TRACE_TOO_LARGE]) };
    throw error;
  }
  // Refused before the EVM ran (a missing payer or contract, too little gas): the reference answers 400.
  if (!outcome.ok && steps === 0 && outcome.status !== 'CONTRACT_REVERT_EXECUTED') {
    return { ok: false, error: evmFailure(outcome.status, outcome.output, outcome.childStatuses) };
  }
  const text = new TextEncoderStream();
  const body = text.readable.pipeThrough(new CompressionStream('gzip'));
  const writer = text.writable.getWriter();
  const known = outcome;
  const send = async () => {
    const log = new OpcodeLog(options);
    let batch = head(replay, known);
    let first = true;
    await session.run(replay.transaction, async (step) => {
      await log.observe(step);
      batch += first ? log.entry(step) : `,${log.entry(step)}`;
      first = false;
      if (batch.length >= BATCH_CHARACTERS) {
        const full = batch;
        batch = '';
        await writer.ready;
        await writer.write(full);
      }
    });
    await writer.write(batch + tail(known));
    await writer.close();
  };
  send().catch((error: unknown) => {
    console.error(JSON.stringify({ msg: 'opcode trace failed while streaming', level: 'error', error: String(error) }));
    writer.abort(error).catch(() => undefined);
  });
  return { ok: true, body };
}
