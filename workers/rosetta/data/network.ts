/**
 * `/network/list`, `/network/options`, `/network/status` (rosetta/app/services/network_service.go).
 */
import { Hono } from 'hono';
import { addressBookNodes } from '../../../db/queries/rosetta-address-book.ts';
import packageJson from '../../../package.json' with { type: 'json' };
import type { AppEnv } from '../../context.ts';
import { entityIdText, entityOfEncoded } from '../domain/entity-id.ts';
import type { Allow, Peer, Version } from '../domain/mesh-types.ts';
import { OPERATION_STATUSES, OPERATION_TYPES } from '../domain/operation-types.ts';
import { ALL_ERRORS, RosettaError } from '../errors.ts';
import { assertNetwork, servedNetwork } from '../request/asserter.ts';
import { readRequest } from '../request/read.ts';
import { metadataRequestSchema, networkRequestSchema } from '../request/schemas.ts';
import { meshResponse } from '../respond.ts';
import { rosettaSettings } from '../settings.ts';
import { blockIdentifier, blockTimestamp, genesisAndLatest, systemAccount, TIP_MAX_AGE } from './block-lookup.ts';

/**
 * The Rosetta API version of the Mesh Go SDK types the reference builds with (coinbase/mesh-sdk-go types v1.7.1),
 * which its `/network/options` reports.
 */
export const ROSETTA_VERSION = '1.7.1';

/** The network's settings change only with a new deployment: their answers are kept a minute. */
const SETTINGS_MAX_AGE = 60;

export const networkRoutes = new Hono<AppEnv>()
  .post('/network/list', async (c) => {
    await readRequest(c, metadataRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    return meshResponse({ network_identifiers: [servedNetwork(settings)] }, SETTINGS_MAX_AGE);
  })
  .post('/network/options', async (c) => {
    const request = await readRequest(c, networkRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    const version: Version = {
      rosetta_version: ROSETTA_VERSION,
      node_version: settings.nodeVersion,
      middleware_version: packageJson.version,
    };
    // `call_methods` and `balance_exemptions` are nil in the reference (written as null); the Mesh document wants
    // arrays, and an empty one decodes to the same nil slice in the Go SDK.
    const allow: Allow = {
      operation_statuses: OPERATION_STATUSES,
      operation_types: OPERATION_TYPES,
      errors: ALL_ERRORS,
      historical_balance_lookup: true,
      call_methods: [],
      balance_exemptions: [],
      mempool_coins: false,
    };
    return meshResponse({ version, allow }, SETTINGS_MAX_AGE);
  })
  .post('/network/status', async (c) => {
    const request = await readRequest(c, networkRequestSchema);
    const settings = rosettaSettings(c.get('config'));
    assertNetwork(request.network_identifier, settings);
    if (!settings.online) throw RosettaError.of('EndpointNotSupportedInOfflineMode');
    const [{ genesis, latest }, nodes] = await Promise.all([
      genesisAndLatest(c, settings),
      addressBookNodes(
        c.get('db'),
        [systemAccount(settings, 101n).encoded, systemAccount(settings, 102n).encoded],
        'ip',
      ),
    ]);
    const peers: Peer[] = nodes.map((node) => ({
      peer_id: node.node_id,
      // A map in Go: its keys sorted.
      metadata: {
        account_id: entityIdText(entityOfEncoded(BigInt(node.node_account_id))),
        endpoints: node.endpoints ? node.endpoints.split(',') : [],
      },
    }));
    return meshResponse(
      {
        current_block_identifier: blockIdentifier(latest),
        current_block_timestamp: blockTimestamp(latest),
        genesis_block_identifier: genesis,
        ...(peers.length > 0 ? { peers } : {}),
      },
      TIP_MAX_AGE,
    );
  });
