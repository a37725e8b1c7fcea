/**
 * The consensus nodes the Construction API knows (the reference's SDK client network, construction_service.go
 * `NewConstructionAPIService`): the `nodes` setting (`host:port` to node account) when it is set; otherwise, online,
 * the nodes and service endpoints of the latest address book in the mirror's own database (the reference's client
 * learns the same book from a mirror node). `/construction/metadata` picks one of their accounts at random and
 * `/construction/submit` sends to the node a transaction names. As the reference's client refreshes its network
 * every `nodeRefreshInterval`, the address book's nodes are kept that long in the isolate (a book without nodes is
 * not kept: the ingest may not have read the first one yet).
 */
import type { Context } from 'hono';
import { addressBookNodes } from '../../../db/queries/rosetta-address-book.ts';
import type { AppEnv } from '../../context.ts';
import { systemAccount } from '../data/block-lookup.ts';
import { entityOfEncoded } from '../domain/entity-id.ts';
import { RosettaError } from '../errors.ts';
import { rosettaSettings } from '../settings.ts';
import type { SdkAccountId } from './hapi/transaction-bytes.ts';

export interface NetworkNode {
  readonly account: SdkAccountId;
  /** `host:port`, in the order given. */
  readonly endpoints: readonly string[];
}

/** The address book's nodes by database and file, with the time they were read (ms). */
const fromAddressBook = new Map<string, { readonly at: number; readonly nodes: readonly NetworkNode[] }>();

/** The nodes of the network, one per node account. */
export async function networkNodes(c: Context<AppEnv>): Promise<readonly NetworkNode[]> {
  const settings = rosettaSettings(c.get('config'));
  const byAccount = new Map<bigint, { account: SdkAccountId; endpoints: string[] }>();
  const add = (encoded: bigint, endpoints: readonly string[]) => {
    const { shard, realm, num } = entityOfEncoded(encoded);
    const known = byAccount.get(encoded) ?? { account: { shard, realm, num }, endpoints: [] };
    known.endpoints.push(...endpoints);
    byAccount.set(encoded, known);
  };
  if (settings.nodes.size > 0) {
    for (const [endpoint, account] of settings.nodes) add(account.encoded, [endpoint]);
    return [...byAccount.values()];
  }
  if (!settings.online) return [];
  const files = [systemAccount(settings, 102n).encoded, systemAccount(settings, 101n).encoded] as const;
  const key = `${c.env.DATABASE_URL}|${files.join(',')}`;
  const known = fromAddressBook.get(key);
  if (known && Date.now() - known.at < settings.nodeRefreshIntervalMs) return known.nodes;
  for (const row of await addressBookNodes(c.get('db'), files, 'domain-or-ip')) {
    add(BigInt(row.node_account_id), row.endpoints ? row.endpoints.split(',') : []);
  }
  const nodes = [...byAccount.values()];
  if (nodes.length > 0) fromAddressBook.set(key, { at: Date.now(), nodes });
  return nodes;
}

/** `getRandomNodeAccountId`: one of the network's node accounts at random; 140 when it knows none. */
export function randomNodeAccount(nodes: readonly NetworkNode[]): SdkAccountId {
  if (nodes.length === 0) throw RosettaError.of('NodeAccountIdsEmpty');
  const [random] = crypto.getRandomValues(new Uint32Array(1));
  return (nodes[(random as number) % nodes.length] as NetworkNode).account;
}
