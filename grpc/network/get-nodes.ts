/**
 * NetworkService.getNodes as the reference serves it: the nodes of the newest address book of file 0.0.101 or
 * 0.0.102 (in the configured shard and realm), by node id, in pages of `addressBook.pageSize` with
 * `addressBook.pageDelay` between them; each node's stake from the newest node_stake day (0 without one), its
 * account from the node table when it has one there.
 */
import type pg from 'pg';
import { encodeEntityId, entityIdString } from '../../ingest/decode/ids.ts';
import { sleep } from '../../ingest/sleep.ts';
import { entityIdOf } from '../entity-id.ts';
import { withoutDefaults } from '../proto3-defaults.ts';
import type { GrpcSettings } from '../settings.ts';
import { invalidArgument, notFound } from '../status.ts';
import { accountIdOf } from '../topic/response.ts';

export interface AddressBookQueryObject {
  readonly file_id?: { shardNum?: string; realmNum?: string; fileNum?: string };
  readonly limit?: number;
}

interface NodeRow {
  node_id: string;
  description: string | null;
  memo: string | null;
  node_cert_hash: Buffer | null;
  public_key: string | null;
  node_account_id: string;
  stake: string | null;
  service_endpoints: { domain_name: string | null; ip_address_v4: string | null; port: number }[];
}

/** The query's file and limit, or INVALID_ARGUMENT with the reference's messages. */
function toFilter(query: AddressBookQueryObject, settings: GrpcSettings): { fileId: bigint; limit: number } {
  const fileId = query.file_id ? entityIdOf(query.file_id, 'fileNum') : undefined;
  const limit = query.limit ?? 0;
  const violations: string[] = [];
  if (fileId === undefined) violations.push('getNodes.filter.fileId: must not be null');
  if (limit < 0) violations.push('getNodes.filter.limit: must be greater than or equal to 0');
  if (fileId === undefined || violations.length > 0) throw invalidArgument(violations.join(', '));
  const valid = [101n, 102n].map((num) => encodeEntityId(settings.shard, settings.realm, num));
  if (!valid.includes(fileId)) throw invalidArgument('Not a valid address book file');
  return { fileId, limit };
}

/** An IPv4 address in dotted form as its four bytes; empty for none. */
function ipv4Bytes(address: string | null): Buffer {
  if (!address) return Buffer.alloc(0);
  const parts = address.split('.').map(Number);
  return parts.length === 4 && parts.every((part) => part >= 0 && part <= 255) ? Buffer.from(parts) : Buffer.alloc(0);
}

function toNodeAddress(row: NodeRow) {
  return {
    ...withoutDefaults({
      nodeId: row.node_id,
      stake: row.stake ?? '0',
      description: row.description ?? '',
      memo: Buffer.from(row.memo ?? '', 'utf8'),
      nodeCertHash: row.node_cert_hash ?? Buffer.alloc(0),
      RSA_PubKey: row.public_key ?? '',
    }),
    nodeAccountId: accountIdOf(BigInt(row.node_account_id)),
    serviceEndpoint: row.service_endpoints.map((endpoint) =>
      withoutDefaults({
        ipAddressV4: ipv4Bytes(endpoint.ip_address_v4),
        port: endpoint.port,
        domain_name: endpoint.domain_name ?? '',
      }),
    ),
  };
}

async function bookTimestamp(db: pg.Pool, fileId: bigint): Promise<bigint> {
  const { rows } = await db.query<{ latest: string | null }>(
    'select max(start_consensus_timestamp) as latest from address_book where file_id = $1',
    [fileId],
  );
  const latest = rows[0]?.latest;
  if (latest === null || latest === undefined) throw notFound(entityIdString(fileId));
  return BigInt(latest);
}

async function nodePage(db: pg.Pool, book: bigint, fromNodeId: bigint, pageSize: number): Promise<NodeRow[]> {
  const { rows } = await db.query<NodeRow>(
    `select e.node_id, e.description, e.memo, e.node_cert_hash, e.public_key,
            coalesce(n.account_id, e.node_account_id) as node_account_id,
            (select s.stake from node_stake s
              where s.node_id = e.node_id
                and s.consensus_timestamp = (select max(consensus_timestamp) from node_stake)) as stake,
            coalesce((select jsonb_agg(jsonb_build_object('domain_name', se.domain_name,
                                                          'ip_address_v4', se.ip_address_v4,
                                                          'port', se.port)
                                       order by se.ip_address_v4, se.port, se.domain_name)
                        from address_book_service_endpoint se
                       where se.consensus_timestamp = e.consensus_timestamp and se.node_id = e.node_id),
                     '[]'::jsonb) as service_endpoints
       from address_book_entry e
       left join node n on n.node_id = e.node_id
      where e.consensus_timestamp = $1 and e.node_id >= $2
      order by e.node_id
      limit $3`,
    [book, fromNodeId, pageSize],
  );
  return rows;
}

/** The nodes of the address book `query` names, as NodeAddress objects, page by page. */
export async function* getNodes(
  query: AddressBookQueryObject,
  context: { db: pg.Pool; settings: GrpcSettings; signal: AbortSignal },
): AsyncGenerator<Record<string, unknown>> {
  const { db, settings, signal } = context;
  const { fileId, limit } = toFilter(query, settings);
  const book = await bookTimestamp(db, fileId);
  const { pageSize, pageDelayMs } = settings.addressBook;
  let sent = 0;
  let next = 0n;
  for (;;) {
    const page = await nodePage(db, book, next, pageSize);
    for (const row of page) {
      yield toNodeAddress(row);
      sent++;
      if (sent === limit) return;
      next = BigInt(row.node_id) + 1n;
    }
    if (page.length < pageSize || signal.aborted) return;
    await sleep(pageDelayMs, signal);
  }
}
