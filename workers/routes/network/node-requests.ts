import type { FieldSpec } from '../../params/java/binding.ts';
import { type Direction, lenientEnum, parseDirection, parseSpringInt } from '../../params/java/numbers.ts';
import { entityIdRangeParam, numberRangeParam, type RangeParam } from '../../params/java/range.ts';
import { REGISTERED_NODE_TYPES, type RegisteredNodeType } from './format-nodes.ts';

/** The request objects of the node routes: their fields in declaration order, conversions and constraints. */

export const NODES_DEFAULT_LIMIT = 10;
/** `/network/nodes` caps a larger limit to this instead of refusing it. */
export const NODES_MAX_LIMIT = 25;
const REGISTERED_NODES_MAX_LIMIT = 100;

const single =
  <V>(parse: (text: string) => V | undefined) =>
  (values: readonly string[]): V | undefined =>
    parse(values[0] as string);

const rangeList = (values: readonly string[]): RangeParam[] | undefined => {
  const params = values.map(numberRangeParam);
  return params.every((param) => param !== undefined) ? (params as RangeParam[]) : undefined;
};

const limitField = (initial: number, max?: number, defaultValue?: string): FieldSpec<number> => ({
  name: 'limit',
  initial,
  defaultValue,
  convert: single(parseSpringInt),
  valid: (limit) => limit >= 1 && (max === undefined || limit <= max),
});

const orderField = (defaultValue?: string): FieldSpec<Direction> => ({
  name: 'order',
  initial: 'asc',
  defaultValue,
  convert: single(parseDirection),
});

export const nodesRequestSpec = (network: { shard: number; realm: number }) => ({
  fileId: {
    name: 'file.id',
    initial: undefined,
    convert: single((text) => entityIdRangeParam(text, network)),
  } as FieldSpec<RangeParam | undefined>,
  nodeIds: { name: 'node.id', multiple: true, initial: [], convert: rangeList } as FieldSpec<RangeParam[]>,
  limit: limitField(NODES_DEFAULT_LIMIT),
  order: orderField(),
});

export const registeredNodesRequestSpec = () => ({
  limit: limitField(25, REGISTERED_NODES_MAX_LIMIT, '25'),
  order: orderField('asc'),
  ids: {
    name: 'registerednode.id',
    multiple: true,
    initial: [],
    convert: rangeList,
    valid: (ids) => ids.length <= 2,
  } as FieldSpec<RangeParam[]>,
  type: {
    name: 'type',
    initial: null,
    convert: single((text) => lenientEnum<RegisteredNodeType>(text, REGISTERED_NODE_TYPES)),
  } as FieldSpec<RegisteredNodeType | null>,
});
