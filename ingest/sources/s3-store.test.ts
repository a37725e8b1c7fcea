import { createServer } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/local-stack/free-port.ts';
import { createTestDatabase, type TestDatabase } from '../../test/harness/test-database.ts';
import { rowCounts } from '../testing/database-facts.ts';
import { ingestFixture, ingestStore, RECORDSTREAMS } from '../testing/fixtures.ts';
import { startTestS3Server, type TestS3Server } from '../testing/s3-server.ts';
import { SourceUnavailableError } from '../transient-errors.ts';
import { S3Store, s3OptionsFromUrl } from './s3-store.ts';

let server: TestS3Server;

beforeAll(async () => {
  server = await startTestS3Server('hedera-streams', 'recordstreams/', path.join(RECORDSTREAMS, 'v6'));
});
afterAll(async () => {
  await server.close();
});

function store(url: string): S3Store {
  return new S3Store(
    s3OptionsFromUrl(url, {
      AWS_ENDPOINT_URL: server.endpoint,
      AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
      AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
      AWS_REGION: 'us-east-1',
    }),
  );
}

describe('the S3 bucket source', () => {
  it('reads the configuration of s3:// and gs:// URLs from the environment', () => {
    expect(s3OptionsFromUrl('s3://hedera-mainnet-streams/x', { AWS_REGION: 'us-east-2' })).toMatchObject({
      bucket: 'hedera-mainnet-streams',
      prefix: 'x/',
      endpoint: 'https://s3.us-east-2.amazonaws.com',
      requesterPays: true,
    });
    expect(s3OptionsFromUrl('gs://hedera-mainnet-streams', {})).toMatchObject({
      prefix: '',
      endpoint: 'https://storage.googleapis.com',
    });
  });

  it('lists keys after a start key and folders under a prefix', async () => {
    const s3 = store('s3://hedera-streams');
    expect(await s3.listFolders('recordstreams/')).toEqual([
      'recordstreams/record0.0.3/',
      'recordstreams/record0.0.4/',
      'recordstreams/record0.0.5/',
      'recordstreams/record0.0.6/',
    ]);
    expect(
      await s3.list('recordstreams/record0.0.3/', 'recordstreams/record0.0.3/2022-07-13T08_46_08.041986003Z_', 10),
    ).toEqual([
      'recordstreams/record0.0.3/2022-07-13T08_46_11.304284003Z.rcd.gz',
      'recordstreams/record0.0.3/2022-07-13T08_46_11.304284003Z.rcd_sig',
      'recordstreams/record0.0.3/sidecar/2022-07-13T08_46_11.304284003Z_01.rcd.gz',
    ]);
    expect(await s3.get('recordstreams/record0.0.3/missing.rcd')).toBeUndefined();
  });

  it('signs every request with SigV4 and pays for it as the requester', async () => {
    await store('s3://hedera-streams').get('recordstreams/record0.0.3/2022-07-13T08_46_11.304284003Z.rcd_sig');
    const last = server.requests.at(-1);
    expect(last?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/us-east-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]*x-amz-request-payer[a-z0-9;-]*, Signature=[0-9a-f]{64}$/,
    );
    expect(last?.headers['x-amz-request-payer']).toBe('requester');
  });

  it('ingests the same rows as the directory source', async () => {
    const fromBucket: TestDatabase = await createTestDatabase();
    const fromDir: TestDatabase = await createTestDatabase();
    try {
      const run = await ingestStore(fromBucket.url, store('s3://hedera-streams'), 'test-v6-sidecar-4n.bin');
      expect(run.files).toBe(2);
      await ingestFixture(fromDir.url, 'v6');
      expect(await rowCounts(fromBucket.sql)).toEqual(await rowCounts(fromDir.sql));
    } finally {
      await fromBucket.drop();
      await fromDir.drop();
    }
  });

  it('reports a throttle, a server error or a refused connection as unavailable for now, and a refusal as final', async () => {
    let status = 503;
    const failing = createServer((_, res) => res.writeHead(status).end('<Error>try later</Error>'));
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const address = failing.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const at = (endpoint: string) => new S3Store(s3OptionsFromUrl('s3://bucket', { AWS_ENDPOINT_URL: endpoint }));
    try {
      for (status of [503, 429]) {
        const error = await at(`http://127.0.0.1:${port}`)
          .list('', '', 10)
          .catch((e: unknown) => e);
        expect(error, String(status)).toBeInstanceOf(SourceUnavailableError);
        expect((error as Error).message).toContain(`HTTP ${status}`);
      }
      status = 403;
      const refused = await at(`http://127.0.0.1:${port}`)
        .get('x')
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(Error);
      expect(refused).not.toBeInstanceOf(SourceUnavailableError);
    } finally {
      await new Promise((resolve) => failing.close(resolve));
    }
    const nobody = await at(`http://127.0.0.1:${await freePort()}`)
      .get('x')
      .catch((e: unknown) => e);
    expect(nobody).toBeInstanceOf(SourceUnavailableError);
    expect((nobody as Error).message).toContain('ECONNREFUSED');
  });
});
