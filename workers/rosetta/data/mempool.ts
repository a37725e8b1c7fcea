/**
 * `/mempool` and `/mempool/transaction` (rosetta/app/services/mempool_service.go): a mirror node sees transactions
 * only once they reached consensus, so after the SDK's checks both answer `Not implemented`, as the reference does.
 */
import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { RosettaError } from '../errors.ts';
import { assertNetwork, assertTransactionIdentifier } from '../request/asserter.ts';
import { readRequest } from '../request/read.ts';
import { mempoolTransactionRequestSchema, networkRequestSchema } from '../request/schemas.ts';
import { rosettaSettings } from '../settings.ts';

export const mempoolRoutes = new Hono<AppEnv>()
  .post('/mempool', async (c) => {
    const request = await readRequest(c, networkRequestSchema);
    assertNetwork(request.network_identifier, rosettaSettings(c.get('config')));
    throw RosettaError.of('NotImplemented');
  })
  .post('/mempool/transaction', async (c) => {
    const request = await readRequest(c, mempoolTransactionRequestSchema);
    assertNetwork(request.network_identifier, rosettaSettings(c.get('config')));
    assertTransactionIdentifier(request.transaction_identifier);
    throw RosettaError.of('NotImplemented');
  });
