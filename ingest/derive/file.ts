/**
 * Files: FileCreate / Update / Append / Delete and SystemDelete / SystemUndelete. Every successful write of
 * contents lands in `file_data` (the address books, fee schedules and exchange rates are files too).
 */
import { publicKeyHex } from '../decode/key.ts';
import type { PbEntityId } from '../decode/types.ts';
import { contractId, entityRow, fileId, type ItemContext, nanos, serviceBody } from './context.ts';

interface FileBody {
  fileID?: PbEntityId;
  expirationTime?: unknown;
  keys?: Uint8Array;
  contents?: Uint8Array;
  memo?: string | { value?: string };
}

function fileData(ctx: ItemContext, id: bigint, contents: Uint8Array | undefined): void {
  ctx.rows.insert('file_data', {
    file_data: contents ?? new Uint8Array(),
    consensus_timestamp: ctx.item.consensusTimestamp,
    entity_id: id,
    transaction_type: ctx.item.type,
  });
}

export function fileCreate(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<FileBody>(ctx);
  const id = fileId(ctx.item.record.receipt?.fileID);
  if (id === 0n) return;
  const ts = ctx.item.consensusTimestamp;
  ctx.rows.change(
    'entity',
    {
      ...entityRow(id),
      created_timestamp: ts,
      deleted: false,
      expiration_timestamp: body.expirationTime ? nanos(body.expirationTime) : null,
      key: body.keys ?? null,
      public_key: publicKeyHex(body.keys),
      memo: typeof body.memo === 'string' ? body.memo : '',
      type: 'FILE',
    },
    ts,
  );
  fileData(ctx, id, body.contents);
}

export function fileUpdate(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<FileBody>(ctx);
  const id = fileId(body.fileID);
  if (id === 0n) return;
  const ts = ctx.item.consensusTimestamp;
  // Any successful update marks the entity not deleted (the importer's entity operation UPDATE).
  const row: Record<string, unknown> = { ...entityRow(id), deleted: false, type: 'FILE' };
  if (body.expirationTime) row.expiration_timestamp = nanos(body.expirationTime);
  if (body.keys) {
    row.key = body.keys;
    row.public_key = publicKeyHex(body.keys);
  }
  if (body.memo && typeof body.memo === 'object') row.memo = body.memo.value ?? '';
  ctx.rows.change('entity', row, ts);
  // Every successful update has its row, empty without contents; readers skip empty updates (the reference's
  // FileDataHandler writes the row, its REST queries pass over it).
  fileData(ctx, id, body.contents);
}

export function fileAppend(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<FileBody>(ctx);
  const id = fileId(body.fileID);
  if (id !== 0n) fileData(ctx, id, body.contents);
}

export function fileDelete(ctx: ItemContext): void {
  if (!ctx.item.successful) return;
  const id = fileId(serviceBody<FileBody>(ctx).fileID);
  if (id !== 0n)
    ctx.rows.change('entity', { ...entityRow(id), deleted: true, type: 'FILE' }, ctx.item.consensusTimestamp);
}

interface SystemBody {
  fileID?: PbEntityId;
  contractID?: PbEntityId;
}

/** SystemDelete / SystemUndelete mark a file or contract deleted or not. */
export function systemDeleteOrUndelete(ctx: ItemContext, deleted: boolean): void {
  if (!ctx.item.successful) return;
  const body = serviceBody<SystemBody>(ctx);
  const file = fileId(body.fileID);
  const contract = contractId(body.contractID);
  const id = file || contract;
  if (id === 0n) return;
  // The importer keeps the entity's expiration: the body's expiration time is not written.
  ctx.rows.change(
    'entity',
    { ...entityRow(id), deleted, type: file ? 'FILE' : 'CONTRACT' },
    ctx.item.consensusTimestamp,
  );
}

/** The main entity of a file transaction: the body's file, or the created one. */
export function fileEntity(ctx: Pick<ItemContext, 'item'>): bigint {
  const { item } = ctx;
  if (item.type === 17) return fileId(item.record.receipt?.fileID);
  const body = (item.bodyName ? item.body[item.bodyName] : undefined) as SystemBody | undefined;
  return fileId(body?.fileID) || contractId(body?.contractID);
}
