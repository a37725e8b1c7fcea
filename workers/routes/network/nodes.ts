import { Hono } from 'hono';
import { networkNodes, registeredNodes } from '../../../db/queries/network-nodes.ts';
import type { AppEnv } from '../../context.ts';
import { javaNextLink } from '../../format/java-next-link.ts';
import { bindRequest } from '../../params/java/binding.ts';
import { javaBadRequest } from '../../params/java/errors.ts';
import { LONG_MAX } from '../../params/java/numbers.ts';
import { hasLowerBound, hasUpperBound, inclusiveValue, type RangeParam } from '../../params/java/range.ts';
import { servletParams } from '../../params/java/servlet-query.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { NETWORK_MAX_AGE, setNetworkCacheControl, systemFileId } from './common.ts';
import { formatNetworkNode, formatRegisteredNode, REGISTERED_NODE_TYPES } from './format-nodes.ts';
import { NODES_MAX_LIMIT, nodesRequestSpec, registeredNodesRequestSpec } from './node-requests.ts';

const ADDRESS_BOOK_FILE = 102;

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const min = (a: bigint, b: bigint) => (a < b ? a : b);

interface IdFilter {
  /** Ids given with `eq`; empty for none. */
  ids: bigint[];
  lower: bigint;
  upper: bigint;
}

/** Node id filters: `eq` values collect, range operators narrow [lower, upper]; `ne` and empty values are ignored. */
function nodeIdFilter(params: readonly RangeParam[]): IdFilter {
  const ids = new Set<bigint>();
  let lower = 0n;
  let upper = LONG_MAX;
  for (const param of params) {
    if (param.operator === 'eq') ids.add(param.value);
    else if (hasLowerBound(param)) lower = max(lower, inclusiveValue(param));
    else if (hasUpperBound(param)) upper = min(upper, inclusiveValue(param));
  }
  if (lower > upper) throw javaBadRequest('Invalid range provided for node.id');
  return { ids: [...ids], lower, upper };
}

/** Registered node id filters: one `eq` alone, or at most two range operators. */
function registeredNodeIdFilter(params: readonly RangeParam[]): { lower: bigint; upper: bigint } {
  let lower = 0n;
  let upper = LONG_MAX;
  for (const param of params) {
    if (param.operator === 'eq') {
      if (params.length > 1) throw javaBadRequest("The 'eq' operator cannot be combined with other operators");
      return { lower: param.value, upper: param.value };
    }
    if (hasLowerBound(param)) lower = max(lower, inclusiveValue(param));
    else if (hasUpperBound(param)) upper = min(upper, inclusiveValue(param));
  }
  if (lower > upper) throw javaBadRequest('Invalid range: lower bound exceeds upper bound');
  return { lower, upper };
}

export const nodeRoutes = new Hono<AppEnv>()
  .get('/nodes', async (c) => {
    setNetworkCacheControl(c);
    const url = pathAndQuery(c.req.url);
    const params = servletParams(url.query);
    const network = c.get('config').common;
    const request = bindRequest(params, nodesRequestSpec(network));
    if (request.fileId && request.fileId.operator !== 'eq') {
      throw javaBadRequest('Only equality operator is supported for file.id');
    }
    const limit = Math.min(request.limit, NODES_MAX_LIMIT);
    const filter = nodeIdFilter(request.nodeIds);
    const ids = filter.ids.filter((id) => id >= filter.lower && id <= filter.upper);
    // `eq` ids all outside the range match nothing
    const rows =
      filter.ids.length > 0 && ids.length === 0
        ? []
        : await networkNodes(c.get('db'), {
            fileId: request.fileId?.value ?? systemFileId(network, ADDRESS_BOOK_FILE),
            nodeIds: ids,
            minNodeId: filter.lower,
            maxNodeId: filter.upper,
            order: request.order,
            limit,
          });
    const nodes = rows.map(formatNetworkNode);
    const last = rows[rows.length - 1];
    const next =
      last && rows.length >= limit
        ? javaNextLink({
            path: url.path,
            params,
            sort: ['node.id'],
            order: request.order,
            last: { 'node.id': last.node_id },
          })
        : null;
    return jsonResponse({ nodes, links: { next } }, { maxAge: NETWORK_MAX_AGE });
  })
  .get('/registered-nodes', async (c) => {
    setNetworkCacheControl(c);
    const url = pathAndQuery(c.req.url);
    const params = servletParams(url.query);
    const request = bindRequest(params, registeredNodesRequestSpec());
    const { lower, upper } = registeredNodeIdFilter(request.ids);
    const rows = await registeredNodes(c.get('db'), {
      lower,
      upper,
      type: request.type === null ? undefined : REGISTERED_NODE_TYPES.indexOf(request.type),
      order: request.order,
      limit: request.limit,
    });
    const last = rows[rows.length - 1];
    const next =
      last && rows.length >= request.limit
        ? javaNextLink({
            path: url.path,
            params,
            sort: ['registerednode.id'],
            order: request.order,
            last: { 'registerednode.id': last.registered_node_id },
          })
        : null;
    return jsonResponse(
      { registered_nodes: rows.map(formatRegisteredNode), links: { next } },
      { maxAge: NETWORK_MAX_AGE },
    );
  });
