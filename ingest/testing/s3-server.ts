/**
 * A minimal S3-protocol server over a local directory, for tests of the bucket source: ListObjectsV2
 * (prefix, start-after, max-keys, delimiter) and GetObject, on 127.0.0.1. It records each request's
 * headers so tests can check signing and requester-pays.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export interface TestS3Server {
  readonly endpoint: string;
  readonly requests: { method: string; url: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

async function allKeys(root: string, dir = ''): Promise<string[]> {
  const entries = await readdir(path.join(root, dir), { withFileTypes: true });
  const keys: string[] = [];
  for (const entry of entries) {
    const key = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) keys.push(...(await allKeys(root, key)));
    else keys.push(key);
  }
  return keys;
}

const escapeXml = (s: string) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

/** Serves `root` as bucket `bucket` under the key prefix `keyPrefix`. */
export async function startTestS3Server(bucket: string, keyPrefix: string, root: string): Promise<TestS3Server> {
  const requests: TestS3Server['requests'] = [];
  const keys = (await allKeys(root)).map((k) => keyPrefix + k).sort();
  const server = createServer(async (req, res) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://localhost');
    const [, requested, ...rest] = url.pathname.split('/');
    if (requested !== bucket) {
      res.writeHead(404).end('<Error><Code>NoSuchBucket</Code></Error>');
      return;
    }
    if (rest.length === 0 || (rest.length === 1 && rest[0] === '')) {
      const prefix = url.searchParams.get('prefix') ?? '';
      const startAfter = url.searchParams.get('start-after') ?? '';
      const maxKeys = Number(url.searchParams.get('max-keys') ?? 1000);
      const delimiter = url.searchParams.get('delimiter');
      const matching = keys.filter((k) => k.startsWith(prefix) && k > startAfter);
      let body = '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult>';
      if (delimiter) {
        const prefixes = [
          ...new Set(
            matching
              .map((k) => k.slice(prefix.length))
              .filter((k) => k.includes(delimiter))
              .map((k) => prefix + k.slice(0, k.indexOf(delimiter) + 1)),
          ),
        ];
        for (const p of prefixes) body += `<CommonPrefixes><Prefix>${escapeXml(p)}</Prefix></CommonPrefixes>`;
        for (const k of matching.filter((k) => !k.slice(prefix.length).includes(delimiter)))
          body += `<Contents><Key>${escapeXml(k)}</Key></Contents>`;
      } else {
        for (const k of matching.slice(0, maxKeys)) body += `<Contents><Key>${escapeXml(k)}</Key></Contents>`;
      }
      res.writeHead(200, { 'content-type': 'application/xml' }).end(`${body}</ListBucketResult>`);
      return;
    }
    const key = rest.map(decodeURIComponent).join('/');
    if (!key.startsWith(keyPrefix)) {
      res.writeHead(404).end();
      return;
    }
    const file = path.join(root, key.slice(keyPrefix.length));
    try {
      if (!(await stat(file)).isFile()) throw new Error('not a file');
      res.writeHead(200, { 'content-type': 'application/octet-stream' }).end(await readFile(file));
    } catch {
      res.writeHead(404).end('<Error><Code>NoSuchKey</Code></Error>');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
