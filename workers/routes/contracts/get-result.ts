import type { Context, Next } from 'hono';
import {
  type ContractResultDetailRow,
  type ContractTransactionTarget,
  contractResultDetails,
} from '../../../db/queries/contract-result-details.ts';
import type { ContractResultRow } from '../../../db/queries/contract-results.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { cacheControlFor } from '../../finality/freshness.ts';
import { isEntityIdText } from '../../params/entity-id.ts';
import { lastValue, parseQuery } from '../../params/query.ts';
import { booleanParam, nonceParam } from '../../params/scalars.ts';
import { parseTimestamp } from '../../params/timestamp.ts';
import { parseTransactionId } from '../../params/transaction-id.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { opaqueEvmAddress, resolveContractId } from './contract-id.ts';
import { formatResultLog } from './format-log.ts';
import { formatContractResultDetails } from './format-result.ts';
import { formatStateChange } from './format-state.ts';
import { resolveHbar } from './params.ts';
import { isSettledTarget } from './result-finality.ts';

/**
 * A contract result never changes once recorded: the reference's ten minutes, final once the transaction the path
 * names is settled (result-finality.ts) unless its parameters come from a file's current contents.
 */
const RESULT_MAX_AGE = 600;
/** The reference's answer when the record holds no call result yet (it is still being completed). */
const PARTIAL_CONTENT = 206;

const ETH_HASH = /^(0x)?([0-9A-Fa-f]{64})$/;

function respond(c: Context<AppEnv>, row: ContractResultDetailRow, hbar: boolean, settled: boolean): Response {
  const result = row as ContractResultRow & ContractResultDetailRow;
  const body = formatContractResultDetails(result, {
    block: row,
    ethereum: row.et_found ? row : undefined,
    logs: row.logs.map(formatResultLog),
    stateChanges: row.state_changes.map(formatStateChange),
    callDataFile: row.call_data_file,
    hbar,
    delegation: c.get('config').response.enableDelegationAddress,
  });
  const status = result.call_result === null ? PARTIAL_CONTENT : 200;
  const final = settled && status === 200 && !row.reads_call_data_file;
  return jsonResponse(body, { cacheControl: cacheControlFor(c, final, RESULT_MAX_AGE), status });
}

/** `GET /contracts/{contractIdOrAddress}/results/{timestamp}`: the contract's result at that timestamp. */
export async function getContractResultRoute(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const search = pathAndQuery(c.req.url).query;
  const maxRepeated = config.query.maxRepeatedQueryParameters;
  const hbar = resolveHbar(search, maxRepeated);
  const text = c.req.param('contractId') ?? '';
  const timestamp = parseTimestamp(c.req.param('consensusTimestamp') ?? '');
  const invalid = [...(isEntityIdText(text) ? [] : ['contractid']), ...(timestamp === undefined ? ['timestamp'] : [])];
  if (invalid.length > 0 || timestamp === undefined) throw ApiError.invalidParams(invalid);
  parseQuery(search, { hbar: booleanParam }, { maxRepeated, legacy: true });
  const contractId = await resolveContractId(c.get('db'), text, config.common);

  const target = { kind: 'contract' as const, contractId, timestamp };
  const row = await contractResultDetails(c.get('db'), target);
  // a contract transaction without its result: the reference fails here; there is nothing to show
  if (!row?.cr_found) throw ApiError.notFound();
  // An EVM address may name another contract later (a CREATE2 at the address of a deleted one): by id only.
  return respond(c, row, hbar, opaqueEvmAddress(text) === undefined && isSettledTarget(target, row));
}

/**
 * `GET /contracts/results/{transactionIdOrHash}`: the result of a transaction given by Ethereum hash (its
 * successful, else latest, execution) or by transaction id and `nonce`. `/contracts/results/logs` is its own route.
 */
export async function getTransactionResultRoute(c: Context<AppEnv>, next: Next): Promise<Response | undefined> {
  const param = c.req.param('transactionIdOrHash') ?? '';
  if (param === 'logs') {
    await next();
    return undefined;
  }
  const config = c.get('config');
  const search = pathAndQuery(c.req.url).query;
  const maxRepeated = config.query.maxRepeatedQueryParameters;
  const filters = parseQuery(search, { hbar: booleanParam, nonce: nonceParam }, { maxRepeated, legacy: true });
  const hbar = resolveHbar(search, maxRepeated);
  const target = transactionTarget(param, c, lastValue(filters, 'nonce') ?? 0);
  const row = await contractResultDetails(c.get('db'), target);
  if (!row?.cr_found) throw ApiError.notFound();
  return respond(c, row, hbar, isSettledTarget(target, row));
}

/** An Ethereum hash (64 hex digits) names a contract transaction hash; anything else must be a transaction id. */
export function transactionTarget(
  param: string,
  c: Context<AppEnv>,
  nonce: number,
): Exclude<ContractTransactionTarget, { kind: 'contract' }> {
  const hash = ETH_HASH.exec(param)?.[2];
  if (hash !== undefined) return { kind: 'hash', hash };
  const config = c.get('config');
  const id = parseTransactionId(param, config.common);
  return {
    kind: 'transaction',
    payer: id.payer,
    validStartNs: id.validStartNs,
    maxConsensusNs: id.validStartNs + BigInt(config.query.maxTransactionConsensusTimestampRangeNs),
    nonce,
  };
}
