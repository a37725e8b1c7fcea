import { describe, expect, it } from 'vitest';
import { ApiError, errorBody, toErrorResponse, tooManyValuesMessage } from './errors.ts';

const body = (...messages: string[]) => ({ _status: { messages: messages.map((message) => ({ message })) } });

describe('ApiError', () => {
  it.each([
    [ApiError.invalidParams('account.id'), 400, body('Invalid parameter: account.id')],
    [
      ApiError.invalidParams(['nonce', 'nonce', 'scheduled']),
      400,
      body('Invalid parameter: nonce', 'Invalid parameter: nonce', 'Invalid parameter: scheduled'),
    ],
    [ApiError.unknownParams(['token.id']), 400, body('Unknown query parameter: token.id')],
    [
      ApiError.invalidParamUsage('block.hash', 'cannot combine block.number and block.hash'),
      400,
      body('Invalid parameter usage: block.hash - cannot combine block.number and block.hash'),
    ],
    [
      ApiError.badRequest('timestamp must have gte or eq operator'),
      400,
      body('timestamp must have gte or eq operator'),
    ],
    [ApiError.notFound(), 404, body('Not found')],
    [ApiError.notFound('Timestamp range is empty'), 404, body('Timestamp range is empty')],
    [ApiError.unauthorized(), 401, body('Invalid credentials')],
    [ApiError.internal(new Error('boom')), 500, body('Internal error')],
    [ApiError.serviceUnavailable(new Error('statement timeout')), 503, body('Service unavailable')],
  ])('%s renders as the reference body', (error, status, expected) => {
    expect(toErrorResponse(error)).toEqual({ status, body: expected });
  });

  it('keeps detail and data only when given, in the reference key order', () => {
    const error = ApiError.badRequest([
      { message: 'Invalid parameter: account.id', detail: 'Only one EVM address or alias is allowed.' },
      { message: 'CONTRACT_REVERT_EXECUTED', detail: '', data: '0x3000' },
    ]);
    expect(JSON.stringify(toErrorResponse(error).body)).toBe(
      '{"_status":{"messages":[{"message":"Invalid parameter: account.id","detail":"Only one EVM address or alias is allowed."},' +
        '{"message":"CONTRACT_REVERT_EXECUTED","data":"0x3000"}]}}',
    );
  });

  it('hides the messages of a 500 or 503 built by hand', () => {
    expect(toErrorResponse(new ApiError(500, 'secret detail')).body).toEqual(body('Internal error'));
    expect(toErrorResponse(new ApiError(503, 'connection refused')).body).toEqual(body('Service unavailable'));
    expect(toErrorResponse(new ApiError(502, 'Bad gateway')).body).toEqual(body('Bad gateway'));
  });

  it('answers anything else with a bare 500', () => {
    expect(toErrorResponse(new TypeError('x is undefined'))).toEqual({ status: 500, body: body('Internal error') });
    expect(toErrorResponse('thrown string')).toEqual({ status: 500, body: body('Internal error') });
  });

  it('is an Error with a readable message and cause', () => {
    const cause = new Error('db down');
    const error = ApiError.serviceUnavailable(cause);
    expect(error).toBeInstanceOf(Error);
    expect(error.cause).toBe(cause);
    expect(ApiError.invalidParams(['a', 'b']).message).toBe('Invalid parameter: a; Invalid parameter: b');
  });

  it('formats the repeated-parameter message', () => {
    expect(tooManyValuesMessage('limit', 9, 8)).toBe(
      'Parameter values count exceeds maximum number allowed: limit count: 9 max: 8',
    );
  });

  it('renders an empty message list', () => {
    expect(errorBody([])).toEqual({ _status: { messages: [] } });
  });

  it('writes web3 errors with all three keys, 5xx messages included', () => {
    const revert = ApiError.web3(400, { message: 'CONTRACT_REVERT_EXECUTED', data: '0x' });
    expect(toErrorResponse(revert)).toEqual({
      status: 400,
      body: { _status: { messages: [{ message: 'CONTRACT_REVERT_EXECUTED', detail: '', data: '0x' }] } },
    });
    expect(toErrorResponse(ApiError.web3(503, { message: 'Service Unavailable' }))).toEqual({
      status: 503,
      body: { _status: { messages: [{ message: 'Service Unavailable', detail: '', data: '' }] } },
    });
  });
});
