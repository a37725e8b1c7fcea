/**
 * Where files go in the output directory, which is laid out like a stream bucket (the legacy account-id
 * layout the ingest lists): `recordstreams/record0.0.<node account>/<instant>Z.rcd.gz` with its `.rcd_sig`,
 * sidecars under `…/sidecar/`; account balance files `accountBalances/balance0.0.<node account>/<instant>_Balances.pb.gz`
 * with their `.pb_sig.gz`; block files under `<network>/block/` with the 19-digit number split in 4-digit
 * folders; the address book with the nodes' keys at `address-book.bin`.
 */
import path from 'node:path';
import { idString } from '../ledger/ids.ts';

export const ADDRESS_BOOK_FILE = 'address-book.bin';
export const LEDGER_FILE = 'ledger.json';
export const BLOCK_NETWORK = 'simnet';

/** `2025-01-01T00_00_00.123456789Z` for an instant in nanoseconds. */
export function instantName(ns: bigint): string {
  const millis = ns / 1_000_000n;
  const iso = new Date(Number(millis)).toISOString().slice(0, 19).replaceAll(':', '_');
  return `${iso}.${String(ns % 1_000_000_000n).padStart(9, '0')}Z`;
}

export function balanceDirectory(out: string, nodeAccountNum: bigint): string {
  return path.join(out, 'accountBalances', `balance${idString(nodeAccountNum)}`);
}

export function recordDirectory(out: string, nodeAccountNum: bigint): string {
  return path.join(out, 'recordstreams', `record${idString(nodeAccountNum)}`);
}

export function recordFileName(startNs: bigint): string {
  return `${instantName(startNs)}.rcd.gz`;
}

export function signatureFileName(startNs: bigint): string {
  return `${instantName(startNs)}.rcd_sig`;
}

export function sidecarFileName(startNs: bigint, id: number): string {
  return path.join('sidecar', `${instantName(startNs)}_${String(id).padStart(2, '0')}.rcd.gz`);
}

/** `<out>/simnet/block/0000/0000/0000/0001/234.blk.zstd` for block 1234. */
export function blockFilePath(out: string, blockNumber: bigint): string {
  const digits = String(blockNumber).padStart(19, '0');
  const parts = [digits.slice(0, 4), digits.slice(4, 8), digits.slice(8, 12), digits.slice(12, 16)];
  return path.join(out, BLOCK_NETWORK, 'block', ...parts, `${digits.slice(16)}.blk.zstd`);
}
