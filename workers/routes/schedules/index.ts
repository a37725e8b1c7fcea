import { Hono } from 'hono';
import { type ScheduleCondition, scheduleById, schedules } from '../../../db/queries/schedules.ts';
import type { AppEnv } from '../../context.ts';
import { ApiError } from '../../errors.ts';
import { nextLink } from '../../format/pagination.ts';
import { encodedEntityIdBound, entityIdParam, requireEntityId } from '../../params/entity-id.ts';
import { limitParam, orderParam, resolveLimit, resolveOrder } from '../../params/limit-order.ts';
import { acceptNoQuery, requestFilters } from '../../params/request-query.ts';
import { jsonResponse } from '../../respond.ts';
import { formatSchedule, isScheduleFinal } from './format.ts';

const LIST_MAX_AGE = 10;
const FINAL_SCHEDULE_MAX_AGE = 3600;

const COLUMNS = { 'account.id': 'creator_account_id', 'schedule.id': 'schedule_id' } as const;

/** `/api/v1/schedules`: the list by schedule id, and one schedule with its signatures. */
export const scheduleRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const config = c.get('config');
    const idParam = entityIdParam(config.common);
    const filters = requestFilters(c, {
      'account.id': idParam,
      limit: limitParam(c.get('maxLimit')),
      order: orderParam,
      'schedule.id': idParam,
    });
    const limit = resolveLimit(filters, config.response.limit.default);
    const order = resolveOrder(filters, 'asc');
    const conditions: ScheduleCondition[] = [];
    for (const filter of filters) {
      if (filter.key !== 'account.id' && filter.key !== 'schedule.id') continue;
      const value = filter.value.kind === 'num' ? filter.value.encoded : null;
      conditions.push({ column: COLUMNS[filter.key], operator: filter.operator, value });
    }

    const rows = await schedules(c.get('db'), { conditions, order, limit });
    const items = rows.map((row) => formatSchedule(row, { omitMissingEntity: true }));
    const last = items[items.length - 1];
    const next =
      items.length === limit && last?.schedule_id
        ? nextLink({
            url: c.req.url,
            order,
            cursor: { 'schedule.id': last.schedule_id },
            maxRepeated: config.query.maxRepeatedQueryParameters,
            boundValue: (_field, value) => {
              return encodedEntityIdBound(value, config.common);
            },
            includeHost: config.response.includeHostInLink,
          })
        : null;
    return jsonResponse({ schedules: items, links: { next } }, { maxAge: LIST_MAX_AGE });
  })
  .get('/:scheduleId', async (c) => {
    const config = c.get('config');
    acceptNoQuery(c);
    const id = requireEntityId(c.req.param('scheduleId'), {
      ...config.common,
      allowEvmAddress: false,
      paramName: 'scheduleid',
    });
    if (id.kind !== 'num') throw ApiError.invalidParams('scheduleid');
    const row = await scheduleById(c.get('db'), id.encoded);
    if (!row) throw ApiError.notFound();
    const maxAge = isScheduleFinal(row, c.get('now')()) ? FINAL_SCHEDULE_MAX_AGE : undefined;
    return jsonResponse(formatSchedule(row), { maxAge });
  });
