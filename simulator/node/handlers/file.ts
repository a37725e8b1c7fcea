/**
 * FileService transactions submitted to a node: files with a key list (every key signs a change; an empty list makes
 * the file immutable), contents created, appended, replaced, and deleted. System files (below 0.0.1001) stay the
 * network's own.
 */
import { FIRST_USER_ENTITY, filePb } from '../../ledger/ids.ts';
import type { FileMeta, LedgerKey } from '../../ledger/ledger.ts';
import { nsOf, numOf } from '../entity-ids.ts';
import { checkMemo, ensure, type Pb, type TxHandler, textOf, wrapped } from '../handling.ts';
import { keyFromPb } from '../signatures.ts';

const MAX_FILE_BYTES = 1_048_576;
const DEFAULT_FILE_LIFETIME_NS = 7_776_000n * 1_000_000_000n;
/** The longest a file may be created for (the node's `ledger.autoRenewPeriod.maxDuration`). */
const MAX_LIFETIME_NS = 8_000_001n * 1_000_000_000n;

const contentsOf = (data: Pb): Uint8Array =>
  data.contents instanceof Uint8Array ? new Uint8Array(data.contents) : new Uint8Array();

function keysOf(value: unknown): LedgerKey[] | undefined {
  const keys = ((value as Pb | undefined)?.keys as unknown[] | undefined) ?? [];
  const out = keys.map(keyFromPb);
  return out.some((k) => k === undefined) ? undefined : (out as LedgerKey[]);
}

/** A file a submitted FileCreate made, live; its keys as one list every member of which signs. */
function liveFile(ledger: import('../../ledger/ledger.ts').Ledger, id: unknown): { num: bigint; meta: FileMeta } {
  const num = numOf(id, 'fileNum');
  ensure(num > 0n, 'INVALID_FILE_ID');
  const meta = ledger.fileMeta.get(num);
  if (!meta) {
    ensure(ledger.files.has(num) || num < FIRST_USER_ENTITY, 'INVALID_FILE_ID');
    ensure(false, 'UNAUTHORIZED');
  }
  ensure(!meta.deleted, 'FILE_DELETED');
  return { num, meta };
}

const signers = (meta: FileMeta): LedgerKey[] => (meta.keys.length > 0 ? [{ kind: 'list', keys: meta.keys }] : []);

export const fileCreate: TxHandler = {
  price: (data) => ({ kind: 'fileCreate', bytes: contentsOf(data).length }),
  pure: (data) => {
    ensure(keysOf(data.keys), 'BAD_ENCODING');
    ensure(contentsOf(data).length <= MAX_FILE_BYTES, 'MAX_FILE_SIZE_EXCEEDED');
    checkMemo(textOf(data.memo));
  },
  handle: ({ net, data }) => {
    const keys = keysOf(data.keys) ?? [];
    return {
      requiredKeys: keys.length > 0 ? [{ kind: 'list', keys }] : [],
      execute: ({ consensusNs }) => {
        if (data.expirationTime) {
          ensure(nsOf(data.expirationTime) - consensusNs <= MAX_LIFETIME_NS, 'AUTORENEW_DURATION_NOT_IN_RANGE');
        }
        const num = net.ledger.allocateEntity();
        net.ledger.files.set(num, contentsOf(data));
        net.ledger.fileMeta.set(num, {
          keys,
          memo: textOf(data.memo),
          expirationNs: data.expirationTime ? nsOf(data.expirationTime) : consensusNs + DEFAULT_FILE_LIFETIME_NS,
          deleted: false,
        });
        return { receipt: { fileID: filePb(num) } };
      },
    };
  },
};

export const fileAppend: TxHandler = {
  price: (data) => ({ kind: 'fileAppend', bytes: contentsOf(data).length }),
  pure: (data) => ensure(data.fileID, 'INVALID_FILE_ID'),
  handle: ({ net, data }) => {
    const { num, meta } = liveFile(net.ledger, data.fileID);
    ensure(meta.keys.length > 0, 'UNAUTHORIZED');
    const current = net.ledger.files.get(num) ?? new Uint8Array();
    const added = contentsOf(data);
    ensure(current.length + added.length <= MAX_FILE_BYTES, 'MAX_FILE_SIZE_EXCEEDED');
    return {
      requiredKeys: signers(meta),
      execute: () => {
        const next = new Uint8Array(current.length + added.length);
        next.set(current);
        next.set(added, current.length);
        net.ledger.files.set(num, next);
        return {};
      },
    };
  },
};

export const fileUpdate: TxHandler = {
  price: (data) => ({ kind: 'fileUpdate', bytes: contentsOf(data).length }),
  pure: (data) => {
    ensure(data.fileID, 'INVALID_FILE_ID');
    if (data.keys) ensure(keysOf(data.keys), 'BAD_ENCODING');
    const memo = wrapped<string>(data.memo);
    if (memo !== undefined) checkMemo(memo);
  },
  handle: ({ net, data }) => {
    const { num, meta } = liveFile(net.ledger, data.fileID);
    const onlyExpiry = Object.keys(data).every((field) => field === 'fileID' || field === 'expirationTime');
    if (!onlyExpiry) ensure(meta.keys.length > 0, 'UNAUTHORIZED');
    const newKeys = data.keys ? (keysOf(data.keys) ?? []) : undefined;
    const requiredKeys = onlyExpiry
      ? []
      : [...signers(meta), ...(newKeys && newKeys.length > 0 ? [{ kind: 'list', keys: newKeys } as LedgerKey] : [])];
    return {
      requiredKeys,
      execute: () => {
        if (data.contents !== undefined) net.ledger.files.set(num, contentsOf(data));
        if (newKeys) meta.keys = newKeys;
        const memo = wrapped<string>(data.memo);
        if (memo !== undefined) meta.memo = memo;
        if (data.expirationTime) meta.expirationNs = nsOf(data.expirationTime);
        return {};
      },
    };
  },
};

export const fileDelete: TxHandler = {
  price: () => ({ kind: 'fileDelete' }),
  pure: (data) => ensure(data.fileID, 'INVALID_FILE_ID'),
  handle: ({ net, data }) => {
    const { num, meta } = liveFile(net.ledger, data.fileID);
    ensure(meta.keys.length > 0, 'UNAUTHORIZED');
    return {
      requiredKeys: signers(meta),
      execute: () => {
        meta.deleted = true;
        net.ledger.files.set(num, new Uint8Array());
        return {};
      },
    };
  },
};
