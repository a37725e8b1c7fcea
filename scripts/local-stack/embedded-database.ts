import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type LocalPostgres, LocalPostgresError, startLocalPostgres } from '../../db/local/embedded-postgres.ts';
import { freePort, isPortFree } from './free-port.ts';
import { StartError } from './start-settings.ts';

/** The port `npm start`'s embedded Postgres takes when it is free. */
export const LOCAL_DB_PORT = 54320;

/** Starts on a port taken between the check and the bind (two clones starting at once) before giving up. */
const PORT_ATTEMPTS = 3;

/**
 * The embedded Postgres of `npm start` on `dir`: on 54320, or a free port when that is taken, also when another
 * clone takes it while this one starts. A directory another server already runs on (a second `npm start` of the
 * same clone) is a `StartError` saying which server and how to share its database instead.
 */
export async function startEmbeddedDatabase(dir: string): Promise<LocalPostgres> {
  for (let attempt = 1; ; attempt++) {
    const port = (await isPortFree(LOCAL_DB_PORT)) ? LOCAL_DB_PORT : await freePort();
    try {
      return await startLocalPostgres({ dir, port, database: 'mirror_node' });
    } catch (error) {
      if (!(error instanceof LocalPostgresError)) throw error;
      if (error.reason === 'port' && attempt < PORT_ATTEMPTS) continue;
      if (error.reason === 'dataDir') throw await directoryInUse(dir);
      throw new StartError(`the embedded database did not start: ${error.message}`);
    }
  }
}

/** What to say when another server runs on `dir`: its PID and port come from its `postmaster.pid`. */
async function directoryInUse(dir: string): Promise<StartError> {
  const lines = await readFile(path.join(dir, 'postmaster.pid'), 'utf8').then(
    (text) => text.split('\n'),
    () => [],
  );
  const [pid, , , port] = lines;
  const shown = path.relative(process.cwd(), dir) || dir;
  return new StartError(
    `the embedded database (${shown}) is in use by another npm start of this clone (PostgreSQL PID ${pid ?? '?'}): ` +
      `stop that one first, or serve its database on another port: ` +
      `DATABASE_URL=postgres://postgres:postgres@127.0.0.1:${port ?? LOCAL_DB_PORT}/mirror_node PORT=8788 HIERO_MIRROR_GRPC_PORT=5601 npm start`,
  );
}
