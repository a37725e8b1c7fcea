/**
 * The ports a Hiero local node's clients expect, which `npm start` serves besides its own: the consensus nodes'
 * gRPC (node 0 on LOCAL_NODE_CONSENSUS_PORT, node n on that port + n), and the mirror's REST API, contract calls and
 * Java REST routes on the local node's mirror ports (the same Worker as PORT). Each one moves by its variable; 0
 * serves nothing there.
 */
import { StartError } from './start-settings.ts';

export interface LocalNodePorts {
  readonly consensus: number;
  readonly rest: number;
  readonly web3: number;
  readonly restJava: number;
}

export const LOCAL_NODE_PORT_VARIABLES = {
  consensus: ['LOCAL_NODE_CONSENSUS_PORT', 50211],
  rest: ['LOCAL_NODE_REST_PORT', 5551],
  web3: ['LOCAL_NODE_WEB3_PORT', 8545],
  restJava: ['LOCAL_NODE_REST_JAVA_PORT', 8084],
} as const;

export function readLocalNodePorts(env: NodeJS.ProcessEnv): LocalNodePorts {
  const read = ([name, fallback]: readonly [string, number]) => {
    const value = env[name];
    if (value === undefined || value === '') return fallback;
    const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
    if (!(port >= 0 && port <= 65_535)) {
      throw new StartError(`${name}=${value} is not a TCP port: set it to a number from 1 to 65535, or 0 for none`);
    }
    return port;
  };
  return {
    consensus: read(LOCAL_NODE_PORT_VARIABLES.consensus),
    rest: read(LOCAL_NODE_PORT_VARIABLES.rest),
    web3: read(LOCAL_NODE_PORT_VARIABLES.web3),
    restJava: read(LOCAL_NODE_PORT_VARIABLES.restJava),
  };
}
