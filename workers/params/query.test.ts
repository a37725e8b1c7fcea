import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { sharedDir } from '../../test/harness/shared-dir.ts';
import { ApiError } from '../errors.ts';
import { entityIdParam, type ParsedEntityId } from './entity-id.ts';
import { eqOnly, type ParamParser } from './filters.ts';
import { limitParam, orderParam } from './limit-order.ts';
import { lastValue, parseQuery, parseTransactionByIdQuery, type QueryOptions } from './query.ts';
import { booleanParam, nonceParam, parsePositiveLong, positiveLongParam } from './scalars.ts';
import { timestampParam } from './timestamp.ts';

const options: QueryOptions = { maxRepeated: 8 };

const failureOf = (fn: () => unknown): { status: number; messages: string[] } | undefined => {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, messages: error.messages.map((m) => m.message) };
    throw error;
  }
  return undefined;
};

/** The first request of a conformance case whose URL starts with `prefix`: its query and expected messages. */
function conformanceRequest(caseId: string, prefix: string): { search: string; status: number; messages: string[] } {
  const file = path.join(sharedDir(), 'conformance', 'cases', `${caseId}.json`);
  const { requests } = JSON.parse(readFileSync(file, 'utf8')) as {
    requests: { url: string; status: number; json: { _status: { messages: { message: string }[] } } }[];
  };
  const request = requests.find((r) => r.url.startsWith(prefix));
  if (!request) throw new Error(`no request ${prefix} in ${caseId}`);
  return {
    search: request.url.slice(request.url.indexOf('?')),
    status: request.status,
    messages: request.json._status.messages.map((m) => m.message),
  };
}

const publicKeyParam: ParamParser<string> = (value) =>
  /^(0x)?([0-9a-fA-F]{64}|[0-9a-fA-F]{66}|[0-9a-fA-F]{88})$/.test(value) ? value : undefined;

describe('parseQuery against the reference answers', () => {
  it.each<[string, string, string, Parameters<typeof parseQuery>[1], QueryOptions?]>([
    [
      'lists invalid values, then unknown names (transaction by id)',
      'transactions/id.invalid-params',
      '/api/v1/transactions/0.0.10-1234567890-000000001?',
      {
        nonce: nonceParam,
        scheduled: booleanParam,
      },
    ],
    [
      'reports unknown names after invalid ones wherever they appear (topic messages)',
      'topics/id.messages.invalid-param-values--topicMessageLookup-false',
      '/api/v1/topics/7/messages?topic.id=7&sequencenumber=2_2',
      { sequencenumber: positiveLongParam, timestamp: timestampParam, limit: limitParam(100), order: orderParam },
    ],
    [
      'reports every invalid parameter of a list (blocks)',
      'blocks/invalid-params',
      '/api/v1/blocks?',
      {
        'block.number': (v, op) => (op !== 'ne' ? parsePositiveLong(v, true) : undefined),
        timestamp: timestampParam,
        order: orderParam,
        limit: limitParam(100),
      },
    ],
    [
      'keeps the older validation order for the accounts list',
      'accounts/invalid-param-values',
      '/api/v1/accounts?account.id=lte:0.1.2.3&account.balance=gt:-2',
      {
        'account.id': entityIdParam(),
        'account.balance': (v) => parsePositiveLong(v, true),
        'account.publickey': publicKeyParam,
        balance: booleanParam,
        limit: limitParam(100),
        order: orderParam,
      },
      { maxRepeated: 8, legacy: true },
    ],
    [
      'reports one message per invalid value of a repeated parameter (token info)',
      'tokens/id.invalid-param-values',
      '/api/v1/tokens/1135?',
      { timestamp: (v, op) => (['eq', 'lt', 'lte'].includes(op) ? timestampParam(v, op) : undefined) },
    ],
    [
      'refuses a parameter repeated past the limit before validating anything',
      'contracts/results.logs.invalid-params',
      '/api/v1/contracts/results/logs?topic2=',
      { topic2: eqOnly((v) => v) },
    ],
  ])('%s', (_name, caseId, prefix, spec, queryOptions = options) => {
    const expected = conformanceRequest(caseId, prefix);
    expect(failureOf(() => parseQuery(expected.search, spec, queryOptions))).toEqual({
      status: expected.status,
      messages: expected.messages,
    });
  });
});

describe('parseQuery', () => {
  const spec = {
    'account.id': entityIdParam(),
    limit: limitParam(100),
    order: orderParam,
    timestamp: timestampParam,
  };

  it('returns typed filters in the reference order', () => {
    const filters = parseQuery(
      '?timestamp=gte:1.5&ACCOUNT.ID=0.0.7&timestamp=lt:2&limit=500&order=DESC',
      spec,
      options,
    );
    expect(filters).toEqual([
      { key: 'timestamp', operator: 'gte', value: 1_500_000_000n },
      { key: 'timestamp', operator: 'lt', value: 2_000_000_000n },
      { key: 'account.id', operator: 'eq', value: expect.objectContaining({ kind: 'num', num: 7n, encoded: 7n }) },
      { key: 'limit', operator: 'eq', value: 100 },
      { key: 'order', operator: 'eq', value: 'desc' },
    ]);
    expectTypeOf(lastValue(filters, 'account.id')).toEqualTypeOf<ParsedEntityId | undefined>();
    expectTypeOf(lastValue(filters, 'limit')).toEqualTypeOf<number | undefined>();
  });

  it('returns no filters for an empty query', () => {
    expect(parseQuery('', spec, options)).toEqual([]);
  });

  it.each<[string, string, QueryOptions, number, string[]]>([
    [
      'reports an unknown name once per value',
      'foo=1&foo=2&limit=x',
      options,
      400,
      ['Invalid parameter: limit', 'Unknown query parameter: foo', 'Unknown query parameter: foo'],
    ],
    [
      'reports an unknown name once in the older validation',
      'foo=1&foo=2&limit=x',
      { maxRepeated: 8, legacy: true },
      400,
      ['Unknown query parameter: foo', 'Invalid parameter: limit'],
    ],
    ['refuses an uppercase operator', 'timestamp=GT:1', options, 400, ['Invalid parameter: timestamp']],
    ['refuses an unknown operator', 'timestamp=foo:1', options, 400, ['Invalid parameter: timestamp']],
    [
      'refuses an empty value',
      'timestamp=&limit',
      options,
      400,
      ['Invalid parameter: timestamp', 'Invalid parameter: limit'],
    ],
    [
      'refuses a second colon in the older validation',
      'timestamp=x:gte:1',
      { maxRepeated: 8, legacy: true },
      400,
      ['Invalid parameter: timestamp'],
    ],
    [
      'caps repeats after merging name spellings, then lists the rest',
      `${'limit=1&'.repeat(5)}${'LIMIT=1&'.repeat(5)}order=x&foo=1`,
      options,
      400,
      [
        'Parameter values count exceeds maximum number allowed: limit count: 10 max: 8',
        'Invalid parameter: order',
        'Unknown query parameter: foo',
      ],
    ],
    [
      'caps repeats of unknown names too',
      `${'foo=1&'.repeat(5)}${'FOO=1&'.repeat(5)}`,
      options,
      400,
      ['Parameter values count exceeds maximum number allowed: foo count: 10 max: 8'],
    ],
    [
      'reports an out-of-range entity id only when nothing else is wrong',
      'account.id=274877906944',
      options,
      400,
      ['Invalid entity ID "0.0.274877906944"'],
    ],
    [
      'reports the first out-of-range entity id',
      'account.id=-1&account.id=0.0.274877906944',
      options,
      400,
      ['Invalid entity ID "0.0.-1"'],
    ],
    [
      'reports invalid values before an out-of-range entity id',
      'account.id=274877906944&limit=0',
      options,
      400,
      ['Invalid parameter: limit'],
    ],
    [
      'reports an out-of-range entity id before repeats past the cap',
      `account.id=-1&${'order=asc&'.repeat(5)}${'ORDER=asc&'.repeat(5)}`,
      options,
      400,
      ['Invalid entity ID "0.0.-1"'],
    ],
    [
      'answers 400 for a nested value, where the reference answers 500',
      'limit=5&account.id[x]=1',
      options,
      400,
      ['Invalid parameter: account.id'],
    ],
    ['answers 400 for a bracketed operator on a known name', 'limit[lt]=1', options, 400, ['Invalid parameter: limit']],
    [
      'reports a nested value of an unknown name as unknown in the older validation',
      'foo[x]=1',
      {
        maxRepeated: 8,
        legacy: true,
      },
      400,
      ['Unknown query parameter: foo'],
    ],
  ])('%s', (_name, search, queryOptions, status, messages) => {
    expect(failureOf(() => parseQuery(search, spec, queryOptions))).toEqual({ status, messages });
  });

  it('reads a:op:v as op:v by default', () => {
    expect(parseQuery('timestamp=x:gte:1', spec, options)).toEqual([
      { key: 'timestamp', operator: 'gte', value: 1_000_000_000n },
    ]);
  });

  it('lets a non-ApiError from a parser through', () => {
    const broken = {
      limit: () => {
        throw new TypeError('bug');
      },
    };
    expect(() => parseQuery('limit=1', broken, options)).toThrow(TypeError);
  });
});

describe('parseTransactionByIdQuery', () => {
  it.each<[string, number | undefined, boolean | undefined]>([
    ['', undefined, undefined],
    ['nonce=0', 0, undefined],
    ['nonce=1&nonce=2', 2, undefined],
    ['nonce=eq:2147483647', 2147483647, undefined],
    ['scheduled=true&scheduled=false&scheduled=true', undefined, true],
    ['scheduled=FALSE&Nonce=3', 3, false],
    ['SCHEDULED=True', undefined, true],
  ])('%j', (search, nonce, scheduled) => {
    expect(parseTransactionByIdQuery(search, options)).toEqual({ nonce, scheduled });
  });

  it.each<[string, string[]]>([
    ['nonce=-1', ['Invalid parameter: nonce']],
    ['nonce=2147483648', ['Invalid parameter: nonce']],
    ['nonce=gte:1', ['Invalid parameter: nonce']],
    ['scheduled=ne:true&scheduled=yes', ['Invalid parameter: scheduled', 'Invalid parameter: scheduled']],
    ['limit=1', ['Unknown query parameter: limit']],
  ])('refuses %j', (search, messages) => {
    expect(failureOf(() => parseTransactionByIdQuery(search, options))).toEqual({ status: 400, messages });
  });
});
