/**
 * `/network/list`, `/network/options`, `/network/status` (rosetta/app/services/network_service.go).
 */
import { Hono } from 'hono';
import packageJson from '../../../package.json' with { type: 'json' };
import type { AppEnv } from '../../context.ts';
import type { Allow, Version } from '../domain/mesh-types.ts';
import { OPERATION_STATUSES, OPERATION_TYPES } from '../domain/operation-types.ts';
import { ALL_ERRORS } from '../errors.ts';
import { assertNetwork, servedNetwork } from '../request/asserter.ts';
import { readRequest } from '../request/read.ts';
import { metadataRequestSchema, networkRequestSchema } from '../request/schemas.ts';
import { meshResponse } from '../respond.ts';
import { rosettaSettings } from '../settings.ts';

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
  });
