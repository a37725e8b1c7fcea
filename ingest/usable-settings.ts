import { lookup } from 'node:dns/promises';
import { existsSync } from 'node:fs';
import { databaseUrlProblem, hidePassword } from '../db/database-url.ts';

/**
 * Settings the ingest cannot work with, however long it waits: a DATABASE_URL that is not a Postgres URL or names
 * a host that does not exist, a local source directory that does not exist. Each is one line (the caller exits 2);
 * a database that refuses connections, or a name the resolver cannot answer for now, is waited out as before.
 */
export async function unusableSettings(databaseUrl: string, sources: readonly string[]): Promise<string | undefined> {
  const problem = databaseUrlProblem(databaseUrl);
  if (problem) return `DATABASE_URL=${hidePassword(databaseUrl)} ${problem}`;
  const host = (URL.parse(databaseUrl)?.hostname ?? '').replace(/^\[(.*)\]$/, '$1');
  // RFC 6761: a name under `invalid` never resolves, which is known without asking a resolver (none may be reachable).
  const missing =
    /(^|\.)invalid\.?$/i.test(host) ||
    (await lookup(host).then(
      () => false,
      (error: NodeJS.ErrnoException) => error.code === 'ENOTFOUND',
    ));
  if (missing)
    return `DATABASE_URL=${hidePassword(databaseUrl)} names a host that does not exist (${host}): check DATABASE_URL`;
  for (const source of sources) {
    if (!isLocalPath(source) || existsSync(source)) continue;
    return `${source} does not exist: give a directory of stream files, s3://BUCKET/PREFIX, gs://BUCKET/PREFIX or blocknode://HOST:PORT`;
  }
  return undefined;
}

const isLocalPath = (source: string) => !/^(s3|gs|blocknode):\/\//.test(source);
