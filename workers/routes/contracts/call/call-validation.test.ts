import { beforeEach, describe, expect, it } from 'vitest';
import { GENESIS, SECOND } from '../../../../test/harness/evm-session.ts';
import { insertRecordFile } from '../../../../test/harness/factories-blocks.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';
import { EARLIEST_HASH, twoBlocks } from './testing/blocks.ts';
import { EVERY_FIELD_INVALID, INVALID_ADDRESSES } from './testing/invalid-requests.ts';

/** The request checks of POST /api/v1/contracts/call and the block forms it accepts, through workerd. */

const NOBODY = '0x00000000000000000000000000000000000004e2';

const { worker } = registerWorkerSuite({
  async seed({ sql }) {
    for (const block of twoBlocks(GENESIS, SECOND)) await insertRecordFile(sql, block);
  },
});

beforeEach(() => worker.setState({ config: { edge: { rateLimit: { enabled: false } } } }));

async function post(body: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${worker.baseUrl}/api/v1/contracts/call`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : undefined };
}

const badRequest = (...details: string[]) => ({
  _status: { messages: details.map((detail) => ({ message: 'Bad Request', detail, data: '' })) },
});

const detailsOf = (body: { _status: { messages: { detail: string }[] } }) =>
  body._status.messages.map((message) => message.detail).sort();

describe('POST /api/v1/contracts/call validation', () => {
  it('reports every violated field with the reference detail', async () => {
    const response = await post(EVERY_FIELD_INVALID.request);
    expect(response.status).toBe(400);
    expect(detailsOf(response.body)).toEqual(EVERY_FIELD_INVALID.details);
    expect(response.body._status.messages[0]).toEqual({ message: 'Bad Request', detail: expect.any(String), data: '' });
  });

  it.each([2000, -2000, 0])('rejects an estimate with gas %i', async (gas) => {
    const response = await post({ to: NOBODY, estimate: true, gas });
    expect([response.status, response.body]).toEqual([
      400,
      badRequest('gas field must be greater than or equal to 21000'),
    ]);
  });

  it('rejects gas above the maximum gas limit', async () => {
    const response = await post({ to: NOBODY, gas: 16_000_000 });
    expect([response.status, response.body]).toEqual([
      400,
      badRequest('gas field must be less than or equal to 15000000'),
    ]);
  });

  it.each(INVALID_ADDRESSES)('rejects the address %j as to and as from', async (address) => {
    expect(await post({ to: address, value: 0 })).toMatchObject({
      status: 400,
      body: badRequest('to field invalid hexadecimal string'),
    });
    expect(await post({ to: NOBODY, from: address })).toMatchObject({
      status: 400,
      body: badRequest('from field invalid hexadecimal string'),
    });
  });

  it('rejects an empty from', async () => {
    expect((await post({ to: NOBODY, from: '' })).body).toEqual(badRequest('from field invalid hexadecimal string'));
  });

  it.each<[object, string]>([
    [{ to: NOBODY, value: -1 }, 'value field must be greater than or equal to 0'],
    [{ to: NOBODY, gasPrice: -1 }, 'gasPrice field must be greater than or equal to 0'],
    [{ to: NOBODY, value: 23 }, 'from field must not be empty'],
    [{ to: null, from: NOBODY, value: 23, data: '0x1079023a' }, 'to field must not be empty'],
    [{ to: NOBODY, data: '0x12345z' }, 'data field invalid hexadecimal string'],
    [{ to: NOBODY, data: '1' }, 'Odd number of characters.'],
    [{ to: NOBODY, data: '1aa' }, 'Odd number of characters.'],
    [{ to: NOBODY, block: '0x2540BE3FF' }, 'Unknown block number'],
    [
      { to: NOBODY, block: '-1' },
      'JSON parse error: Cannot construct instance of `org.hiero.mirror.web3.viewmodel.BlockType`, problem: Invalid block value: -1',
    ],
  ])('answers %j with 400 %s', async (body, detail) => {
    expect(await post(body)).toMatchObject({ status: 400, body: badRequest(detail) });
  });

  it('answers malformed JSON with Jackson words', async () => {
    const response = await post(`{from: "${NOBODY}"`);
    expect([response.status, response.body]).toEqual([
      400,
      badRequest(
        "JSON parse error: Unexpected character ('f' (code 102)): was expecting double-quote to start property name",
      ),
    ]);
  });

  it('answers another content type with 415', async () => {
    const response = await post({ to: NOBODY }, { 'content-type': 'text/plain;charset=UTF-8' });
    expect([response.status, response.body]).toEqual([
      415,
      {
        _status: {
          messages: [
            {
              message: 'Unsupported Media Type',
              detail: "Content-Type 'text/plain;charset=UTF-8' is not supported",
              data: '',
            },
          ],
        },
      },
    ]);
  });

  it('rejects more than 131072 bytes of call data as TRANSACTION_OVERSIZE', async () => {
    const response = await post({ to: NOBODY, data: `0x${'ab'.repeat(131_073)}` });
    expect([response.status, response.body]).toEqual([
      400,
      { _status: { messages: [{ message: 'TRANSACTION_OVERSIZE', detail: '', data: '0x' }] } },
    ]);
  });

  it('answers the preflight of a contract route with GET, HEAD and POST for any origin', async () => {
    const response = await fetch(`${worker.baseUrl}/api/v1/contracts/call`, {
      method: 'OPTIONS',
      headers: { origin: 'https://dapp.example', 'access-control-request-method': 'POST' },
    });
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toBe('GET,HEAD,POST');
  });
});

describe('POST /api/v1/contracts/call blocks', () => {
  it.each([null, '', 'earliest', 'latest', '0', 'pending', 'safe', 'finalized', `0x${EARLIEST_HASH}`, '0x14'])(
    'accepts the block %j',
    async (block) => {
      const response = await post({ to: NOBODY, block });
      expect([response.status, response.body]).toEqual([200, { result: '0x' }]);
    },
  );
});
