import { describe, expect, it } from 'vitest';
import { insertRecordFile } from '../../../test/harness/factories-blocks.ts';
import { registerWorkerSuite } from '../../../test/harness/worker-suite.ts';

const START = 1_700_000_000_000_000_000n;
const SECOND = 1_000_000_000n;
const hashOf = (n: number) => n.toString(16).padStart(2, '0').repeat(48);
const numbers = (body: { blocks: { number: number }[] }) => body.blocks.map((b) => b.number);

const { worker } = registerWorkerSuite({
  seed: async (db) => {
    for (let n = 1; n <= 5; n++) {
      await insertRecordFile(db.sql, {
        index: BigInt(n),
        consensus_start: START + BigInt(n) * 2n * SECOND,
        consensus_end: START + BigInt(n) * 2n * SECOND + SECOND,
        hash: hashOf(n),
        prev_hash: hashOf(n - 1),
      });
    }
    // a block from before smart contracts and HAPI versions were recorded, with a count beyond 2^53
    await insertRecordFile(db.sql, {
      index: 9_000_000_000_000_001n,
      consensus_start: START + 100n * SECOND,
      consensus_end: START + 101n * SECOND,
      hash: hashOf(200),
      count: 9_007_199_254_740_993n,
      gas_used: -1,
      logs_bloom: null,
      hapi_version_major: null,
      size: null,
      bytes: Buffer.alloc(7),
    });
  },
});

describe('GET /api/v1/blocks', () => {
  it('lists the newest blocks first, with the default cache time', async () => {
    const res = await worker.get('/api/v1/blocks?limit=2');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=1');
    expect(numbers(res.body)).toEqual([9_000_000_000_000_001, 5]);
    expect(res.body.links.next).toBe('/api/v1/blocks?limit=2&block.number=lt:5');
  });

  it('pages by block number in either order, and ends where the range ends', async () => {
    const asc = await worker.get('/api/v1/blocks?order=asc&limit=2&block.number=gt:1');
    expect(numbers(asc.body)).toEqual([2, 3]);
    expect(asc.body.links.next).toBe('/api/v1/blocks?order=asc&limit=2&block.number=gt:3');
    const end = await worker.get('/api/v1/blocks?block.number=gte:2&block.number=lte:3&order=asc&limit=2');
    expect(end.body.links.next).toBeNull();
  });

  it('takes block numbers in hex and timestamps of the block end', async () => {
    expect(numbers((await worker.get('/api/v1/blocks?block.number=0x3')).body)).toEqual([3]);
    const ts = await worker.get('/api/v1/blocks?timestamp=gte:1700000006&timestamp=lt:1700000010.000000001');
    expect(numbers(ts.body)).toEqual([4, 3]);
  });

  it('answers 400 for invalid parameters', async () => {
    const res = await worker.get('/api/v1/blocks?block.number=ne:1&timestamp=x&limit=0&order=up&hash=1');
    expect(res.status).toBe(400);
    expect(res.body._status.messages.map((m: { message: string }) => m.message)).toEqual([
      'Invalid parameter: block.number',
      'Invalid parameter: timestamp',
      'Invalid parameter: limit',
      'Invalid parameter: order',
      'Unknown query parameter: hash',
    ]);
  });
});

describe('GET /api/v1/blocks/{hashOrNumber}', () => {
  it('finds a block by number, cached for ten minutes', async () => {
    const res = await worker.get('/api/v1/blocks/3');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=600');
    expect(res.body).toEqual({
      count: 3,
      gas_used: 0,
      hapi_version: '0.54.1',
      hash: `0x${hashOf(3)}`,
      logs_bloom: '0x',
      name: '1700000006000000000.rcd',
      number: 3,
      previous_hash: `0x${hashOf(2)}`,
      size: 1024,
      timestamp: { from: '1700000006.000000000', to: '1700000007.000000000' },
    });
  });

  it('finds a block by its 48-byte hash or the 32-byte prefix, in any case, with or without 0x', async () => {
    for (const form of [
      hashOf(4),
      `0x${hashOf(4)}`,
      hashOf(4).slice(0, 64).toUpperCase(),
      `0x${hashOf(4).slice(0, 64)}`,
    ]) {
      const res = await worker.get(`/api/v1/blocks/${form}`);
      expect(res.status).toBe(200);
      expect(res.body.number).toBe(4);
    }
  });

  it('writes what an old record file lacks as null, and big counts exactly', async () => {
    const res = await fetch(`${worker.baseUrl}/api/v1/blocks/9000000000000001`);
    const text = await res.text();
    expect(text).toContain('"count":9007199254740993');
    expect(JSON.parse(text)).toMatchObject({ gas_used: null, hapi_version: null, logs_bloom: null, size: 7 });
  });

  it('answers 404 for a block that is not there and 400 for anything else', async () => {
    expect((await worker.get('/api/v1/blocks/6')).status).toBe(404);
    expect((await worker.get(`/api/v1/blocks/${hashOf(9)}`)).status).toBe(404);
    for (const bad of ['0x3', '1test', hashOf(4).slice(0, 40), '-1']) {
      const res = await worker.get(`/api/v1/blocks/${bad}`);
      expect(res.status).toBe(400);
      expect(res.body._status.messages).toEqual([{ message: 'Invalid parameter: hashOrNumber' }]);
    }
    const unknown = await worker.get('/api/v1/blocks/3?limit=1');
    expect(unknown.body._status.messages).toEqual([{ message: 'Unknown query parameter: limit' }]);
  });
});
