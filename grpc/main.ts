/**
 * `npm run grpc`: the mirror node's gRPC API on its own (`npm start` runs it beside the Worker), on DATABASE_URL
 * (default: the local embedded database that `npm start` runs), listening on GRPC_HOST (default 0.0.0.0) and
 * HIERO_MIRROR_GRPC_PORT. Settings: grpc/settings.ts. SIGTERM / SIGINT stop it after ending the open calls.
 */

import { answerHelp } from '../common/cli-help.ts';
import { startGrpcServer } from './server.ts';
import { readGrpcSettings } from './settings.ts';

const LOCAL_DATABASE_URL = 'postgres://postgres:postgres@127.0.0.1:54320/mirror_node';

const log = (fields: Record<string, unknown>) => console.log(JSON.stringify({ service: 'grpc', ...fields }));

export async function main(): Promise<number> {
  answerHelp(
    process.argv.slice(2),
    'usage: npm run grpc\n\nThe gRPC API (ConsensusService.subscribeTopic, NetworkService.getNodes) on its own, plaintext.\nEnvironment: DATABASE_URL (default: the database npm start runs), GRPC_HOST (0.0.0.0), HIERO_MIRROR_GRPC_* (README.md,\nConfiguration).',
  );
  const read = readGrpcSettings(process.env);
  if ('errors' in read) {
    for (const error of read.errors) console.error(`grpc: ${error}`);
    return 2;
  }
  if (read.ignored.length > 0) log({ msg: 'variables that name no setting are ignored', names: read.ignored });
  const server = await startGrpcServer({
    databaseUrl: process.env.DATABASE_URL ?? LOCAL_DATABASE_URL,
    settings: read.settings,
    host: process.env.GRPC_HOST ?? '0.0.0.0',
    log,
  });
  log({ msg: 'gRPC API started', address: server.address });
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  await server.close();
  log({ msg: 'gRPC API stopped' });
  return 0;
}

if (import.meta.main) process.exit(await main());
