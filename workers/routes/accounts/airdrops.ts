import type { Context } from 'hono';
import { boundConditions, RangeBound, RangeBoundError } from '../../../db/queries/accounts-range-bounds.ts';
import { tokenAirdrops } from '../../../db/queries/airdrops.ts';
import type { AppEnv } from '../../context.ts';
import { javaNextLink } from '../../format/java-next-link.ts';
import { entityId, int64, timestampString } from '../../format/values.ts';
import { javaBadRequest } from '../../params/java/errors.ts';
import { entityIdRangeParam, numberRangeParam } from '../../params/java/range.ts';
import { servletParams } from '../../params/java/servlet-query.ts';
import { pathAndQuery } from '../../request-url.ts';
import { jsonResponse } from '../../respond.ts';
import { lookupJavaAccountId, parseJavaAccountId } from './java-account-id.ts';
import { checkConstraints, limitRequestParam, orderRequestParam, rangeRequestParam } from './java-params.ts';

/** What each kind pages by first: the other party of the airdrop (its parameter and column). */
const KINDS = {
  outstanding: { parameter: 'receiver.id', column: 'receiver_account_id' },
  pending: { parameter: 'sender.id', column: 'sender_account_id' },
} as const;

/**
 * The bounds the reference's airdrop request filters by, in its order: the other party (or, without it, the
 * token), then the token (or the serial number), then the serial number; one bound may appear twice.
 */
function airdropBounds(party: RangeBound, token: RangeBound, serial: RangeBound): RangeBound[] {
  const primary = party.isEmpty() ? token : party;
  if (primary.isEmpty()) return [serial];
  const secondary = token.isEmpty() ? serial : token;
  if (secondary.isEmpty()) return [primary];
  return [primary, secondary, serial];
}

/**
 * `GET /api/v1/accounts/{id}/airdrops/outstanding` (airdrops the account sent) and `.../pending` (airdrops it is
 * to receive) that are still pending, by the other party, token and serial number, as the Java process serves them.
 */
export const getAirdrops =
  (kind: keyof typeof KINDS) =>
  async (c: Context<AppEnv>): Promise<Response> => {
    const config = c.get('config');
    const { parameter, column } = KINDS[kind];
    const url = pathAndQuery(c.req.url);
    const params = servletParams(url.query);
    // arguments convert in the method's order; the first that fails ends the request
    const id = parseJavaAccountId(c.req.param('idOrAliasOrEvmAddress') ?? '', config.common);
    const limit = limitRequestParam(params);
    const order = orderRequestParam(params);
    const partyIds = rangeRequestParam(params, parameter, (text) => entityIdRangeParam(text, config.common));
    const serialNumbers = rangeRequestParam(params, 'serialnumber', numberRangeParam);
    const tokenIds = rangeRequestParam(params, 'token.id', (text) => entityIdRangeParam(text, config.common));
    checkConstraints([
      { name: 'limit', limit },
      { name: parameter, ranges: partyIds },
      { name: 'serialnumber', ranges: serialNumbers },
      { name: 'token.id', ranges: tokenIds },
    ]);

    let bounds: RangeBound[];
    try {
      // the reference names the party bound `account.id` in its messages
      const party = new RangeBound(partyIds, true, 'account.id', column);
      const serial = new RangeBound(serialNumbers, false, 'serialnumber', 'serial_number');
      const token = new RangeBound(tokenIds, false, 'token.id', 'token_id');
      bounds = airdropBounds(party, token, serial);
    } catch (error) {
      if (error instanceof RangeBoundError) throw javaBadRequest(error.message);
      throw error;
    }
    const accountId = await lookupJavaAccountId(c.get('db'), id);
    const rows = await tokenAirdrops(c.get('db'), { accountId, kind, bounds: boundConditions(bounds), order, limit });
    const airdrops = rows.map((row) => ({
      amount: int64(row.amount),
      receiver_id: entityId(row.receiver_account_id),
      sender_id: entityId(row.sender_account_id),
      serial_number: row.serial_number === '0' ? null : int64(row.serial_number),
      timestamp: { from: timestampString(row.timestamp_from), to: timestampString(row.timestamp_to) },
      token_id: entityId(row.token_id),
    }));

    const last = airdrops[airdrops.length - 1];
    // a fungible airdrop (no serial number) continues from its token
    const sort = last?.serial_number === null ? [parameter, 'token.id'] : [parameter, 'token.id', 'serialnumber'];
    const next =
      last && airdrops.length >= limit
        ? javaNextLink({
            path: url.path,
            params,
            sort,
            order,
            last: {
              'receiver.id': String(last.receiver_id),
              'sender.id': String(last.sender_id),
              serialnumber: last.serial_number === null ? '0L' : String(last.serial_number),
              'token.id': String(last.token_id),
            },
          })
        : null;
    return jsonResponse({ airdrops, links: { next } });
  };
