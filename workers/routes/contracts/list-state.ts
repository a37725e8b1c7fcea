import type { Context } from 'hono';
import type { Comparison } from '../../../db/queries/comparison.ts';
import { contractState } from '../../../db/queries/contract-state.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { requestFilters } from '../../params/request-query.ts';
import { timestampParam } from '../../params/timestamp.ts';
import { jsonResponse } from '../../respond.ts';
import { checkContractIdPath, resolveContractId } from './contract-id.ts';
import { formatState } from './format-state.ts';
import { contractsNextLink } from './paging.ts';
import { slotParam } from './params.ts';

/**
 * A slot as stored, in hex digits: 32 bytes in `contract_state`, but without leading zero bytes in
 * `contract_state_change` (read when a timestamp is given).
 */
function storedSlot(text: string, historical: boolean): string {
  const digits = text.startsWith('0x') ? text.slice(2) : text;
  if (!historical) return digits.padStart(64, '0');
  const trimmed = digits.replace(/^0+/, '');
  return trimmed.length % 2 === 0 ? trimmed : `0${trimmed}`;
}

/**
 * `GET /contracts/{contractIdOrAddress}/state`: the contract's storage in slot order, current or (with `timestamp`)
 * as of a time: `timestamp=t` means at or before t.
 */
export async function listStateRoute(c: Context<AppEnv>): Promise<Response> {
  const config = c.get('config');
  const db = c.get('db');
  const text = c.req.param('contractId') ?? '';
  checkContractIdPath(text);
  const filters = requestFilters(c, {
    limit: limitParam(c.get('maxLimit')),
    order: orderParam,
    slot: slotParam,
    timestamp: timestampParam,
  });
  const contractId = await resolveContractId(db, text, config.common);
  const limit = resolveLimit(filters, config.response.limit.default);
  const order = resolveOrder(filters, 'asc');

  const timestamps: Comparison<bigint>[] = [];
  for (const { key, operator, value } of filters) {
    if (key !== 'timestamp') continue;
    if (operator === 'ne') throw ApiError.badRequest('Not equals (ne) operator is not supported for timestamp');
    timestamps.push({ operator: operator === 'eq' ? 'lte' : operator, value });
  }
  const historical = timestamps.length > 0;
  const slots: string[] = [];
  const slotComparisons: Comparison<string>[] = [];
  for (const { key, operator, value } of filters) {
    if (key !== 'slot') continue;
    const slot = storedSlot(value, historical);
    if (operator === 'eq') slots.push(slot);
    else slotComparisons.push({ operator, value: slot });
  }

  const rows = await contractState(db, { contractId, timestamps, slots, slotComparisons, order, limit });
  const state = rows.map(formatState);
  const last = state[state.length - 1];
  const next = last && state.length === limit ? contractsNextLink(c, order, { slot: last.slot ?? '' }) : null;
  return jsonResponse({ state, links: { next } });
}
