/**
 * Runtime bytecode by contract id, kept per isolate (or Durable Object) for every session: `contract` has no
 * history, so a contract's code is the same at every block. Bounded by bytes, least recently used first out.
 */
import { keccak_256 } from '@noble/hashes/sha3.js';
import type { Database } from '../../db/client.ts';
import { runtimeBytecode } from '../../db/queries/evm-state.ts';

export interface Bytecode {
  readonly code: Uint8Array;
  readonly hash: Uint8Array;
}

/** 32 MiB: room for well over a thousand contracts of the 24 KiB maximum size. */
const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

export class BytecodeCache {
  private readonly entries = new Map<bigint, Promise<Bytecode>>();
  private readonly sizes = new Map<bigint, number>();
  private bytes = 0;
  private readonly maxBytes: number;

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.maxBytes = maxBytes;
  }

  get size(): number {
    return this.entries.size;
  }

  get(db: Database, contractId: bigint): Promise<Bytecode> {
    const cached = this.entries.get(contractId);
    if (cached) {
      // Map order is insertion order: re-inserting marks the entry most recently used.
      this.entries.delete(contractId);
      this.entries.set(contractId, cached);
      return cached;
    }
    const loading = runtimeBytecode(db, contractId).then((code = new Uint8Array()) => {
      // No code yet is not kept: the importer may write it later (a contract row without its sidecar's bytecode).
      if (code.length === 0) this.entries.delete(contractId);
      else this.remember(contractId, code.length);
      return { code, hash: keccak_256(code) };
    });
    loading.catch(() => this.entries.delete(contractId));
    this.entries.set(contractId, loading);
    return loading;
  }

  private remember(contractId: bigint, length: number): void {
    if (!this.entries.has(contractId)) return;
    this.sizes.set(contractId, length);
    this.bytes += length;
    for (const [id] of this.entries) {
      if (this.bytes <= this.maxBytes || id === contractId) break;
      this.entries.delete(id);
      this.bytes -= this.sizes.get(id) ?? 0;
      this.sizes.delete(id);
    }
  }
}
