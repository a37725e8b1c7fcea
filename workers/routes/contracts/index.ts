import { Hono } from 'hono';
import type { AppEnv } from '../../context.ts';
import { getContractRoute } from './get-contract.ts';
import { getContractResultRoute, getTransactionResultRoute } from './get-result.ts';
import { listActionsRoute } from './list-actions.ts';
import { listContractsRoute } from './list-contracts.ts';
import { listAllLogsRoute, listContractLogsRoute } from './list-logs.ts';
import { listAllResultsRoute, listContractResultsRoute } from './list-results.ts';
import { listStateRoute } from './list-state.ts';

/**
 * `/api/v1/contracts` routes (issue #5), registered in the reference's order: where two patterns match one path
 * (`/contracts/results` and `/contracts/{id}`, `/contracts/results/logs` and `/contracts/results/{id}`), the first
 * one answers, or passes on (`next()`) when the path is the other route's.
 */
export const contractRoutes = new Hono<AppEnv>()
  .get('/', listContractsRoute)
  .get('/:contractId', getContractRoute)
  .get('/:contractId/results', listContractResultsRoute)
  .get('/:contractId/state', listStateRoute)
  .get('/:contractId/results/logs', listContractLogsRoute)
  .get('/:contractId/results/:consensusTimestamp', getContractResultRoute)
  .get('/results', listAllResultsRoute)
  .get('/results/logs', listAllLogsRoute)
  .get('/results/:transactionIdOrHash', getTransactionResultRoute)
  .get('/results/:transactionIdOrHash/actions', listActionsRoute);
