/**
 * Blocks from a block node's subscribe stream (ingest.md §3.6, `blocknode://host:port[?tls=1]`). A block arrives
 * as one or more BlockItemSets and is complete at its `end_of_block`. The stream is resumed from the first block
 * not yet handed over whenever it breaks: a dropped connection, an error status, or a gap (a block after the
 * expected one is refused and the missing range requested again). Blocks already handed over are dropped when a
 * node repeats them. A response over the 36 MiB limit is fatal: retrying would only receive it again.
 */
import { blockTypes } from '../../proto/block.ts';
import { sleep } from '../sleep.ts';
import { SourceUnavailableError } from '../transient-errors.ts';
import { type BlockSource, type BlockStreamOptions, FatalSourceError, type SourcedBlock } from './block-source.ts';
import { GrpcClient, type GrpcTarget, parseBlockNodeUrl } from './grpc-client.ts';

export const MAX_STREAM_RESPONSE_BYTES = 36 * 1024 * 1024;
const SUBSCRIBE = '/org.hiero.block.api.BlockStreamSubscribeService/subscribeBlockStream';
const SERVER_STATUS = '/org.hiero.block.api.BlockNodeService/serverStatus';
const UNBOUNDED = (1n << 64n) - 1n;
const SUCCESS = 1;

export interface BlockNodeOptions {
  /** Consecutive failed attempts before giving up (each waits longer, up to `maxBackoffMs`). */
  readonly maxAttempts?: number;
  readonly initialBackoffMs?: number;
  readonly maxBackoffMs?: number;
  readonly maxMessageBytes?: number;
  /** Called for each interruption that is retried. */
  readonly onRetry?: (reason: string, resumeAt: bigint) => void;
}

class GapError extends Error {
  override readonly name = 'GapError';
}

interface Response {
  status?: number;
  block_items?: { block_items: Uint8Array[] };
  end_of_block?: { block_number?: { toString(): string } };
}

export class BlockNodeSource implements BlockSource {
  readonly description: string;
  private readonly client: GrpcClient;
  private readonly options: BlockNodeOptions;

  constructor(target: string | GrpcTarget, options: BlockNodeOptions = {}) {
    const parsed = typeof target === 'string' ? parseBlockNodeUrl(target) : target;
    this.client = new GrpcClient(parsed);
    this.description = `blocknode://${parsed.host}:${parsed.port}${parsed.tls ? '?tls=1' : ''}`;
    this.options = options;
  }

  private get maxMessageBytes(): number {
    return this.options.maxMessageBytes ?? MAX_STREAM_RESPONSE_BYTES;
  }

  async earliest(): Promise<bigint | undefined> {
    const types = blockTypes();
    const request = types.ServerStatusRequest.encode({}).finish();
    const response = types.ServerStatusResponse.decode(
      await this.client.unary(SERVER_STATUS, request, this.maxMessageBytes),
    );
    const status = response as unknown as {
      first_available_block?: { toString(): string };
      last_available_block?: { toString(): string };
    };
    const first = BigInt(status.first_available_block?.toString() ?? '0');
    const last = BigInt(status.last_available_block?.toString() ?? '0');
    return first === 0n && last === 0n ? undefined : first;
  }

  close(): void {
    this.client.close();
  }

  async *blocks(start: bigint, options: BlockStreamOptions): AsyncIterable<SourcedBlock> {
    const types = blockTypes();
    const maxAttempts = this.options.maxAttempts ?? 10;
    let next = start;
    let failures = 0;
    const done = () => options.signal?.aborted || (options.end !== undefined && next > options.end);
    while (!done()) {
      const request = types.SubscribeStreamRequest.encode({
        start_block_number: next.toString(),
        end_block_number: (options.end ?? UNBOUNDED).toString(),
      }).finish();
      let items: Uint8Array[] = [];
      let size = 0;
      let graceful = false;
      try {
        for await (const payload of this.client.serverStream(
          SUBSCRIBE,
          request,
          this.maxMessageBytes,
          options.signal,
        )) {
          const response = types.SubscribeStreamResponse.decode(payload) as unknown as Response;
          if (response.block_items) {
            items.push(...response.block_items.block_items);
            size += payload.length;
          } else if (response.end_of_block) {
            const number = BigInt(response.end_of_block.block_number?.toString() ?? '0');
            const block = { number, origin: `${this.description}#${number}`, items, size };
            items = [];
            size = 0;
            if (number < next) continue; // a repeat of a block already handed over
            if (number > next) throw new GapError(`block node skipped from ${next} to ${number}`);
            failures = 0;
            next = number + 1n;
            yield block;
            if (done()) return;
          } else if (response.status !== undefined) {
            if (response.status !== SUCCESS) throw new Error(`subscribe stream status ${response.status}`);
            graceful = true;
            break;
          }
        }
        if (done()) return;
        if (!graceful) throw new Error('subscribe stream ended without a status');
        // The node has nothing further for now.
        if (options.untilIdle) return;
        await sleep(options.pollIntervalMs ?? 2_000, options.signal);
      } catch (error) {
        if (error instanceof FatalSourceError || options.signal?.aborted) throw error;
        failures++;
        const reason = (error as Error).message;
        if (failures >= maxAttempts)
          throw new SourceUnavailableError(`block node ${this.description} failed ${failures} times: ${reason}`);
        this.client.close();
        this.options.onRetry?.(reason, next);
        const backoff = Math.min(
          (this.options.initialBackoffMs ?? 500) * 2 ** (failures - 1),
          this.options.maxBackoffMs ?? 30_000,
        );
        await sleep(backoff, options.signal);
      }
    }
  }
}
