import { DatabaseError } from '../db/database-error.ts';

/**
 * The one error type of the REST API and the body the reference writes for it:
 * `{"_status":{"messages":[{"message":"..."}]}}`, with `detail` (and `data`, from contract calls) only when set.
 * POST /api/v1/contracts/call answers in the web3 module's flavour instead: every message has all three keys (`""`
 * when empty), and its 5xx messages are its own (`FAIL_INVALID`, `Service Unavailable`), not hidden.
 * Message texts are part of the interface: they match the reference mirror node word for word.
 */

export interface ErrorMessage {
  message: string;
  detail?: string;
  /** Hex-encoded revert data (`0x...`), used by contract call errors. */
  data?: string;
}

export interface ErrorBody {
  _status: { messages: ErrorMessage[] };
}

type MessageInput = string | ErrorMessage;

/** `rest`: the REST API's body; `web3`: the contracts/call body, all keys always present. */
export type ErrorFlavour = 'rest' | 'web3';

const toMessage = (input: MessageInput): ErrorMessage => (typeof input === 'string' ? { message: input } : input);

/**
 * The reference never shows the text of a 500 or 503 to the client, only the status phrase; every other status
 * (4xx, and 502 from contract calls) carries its own messages.
 */
const HIDDEN_MESSAGES: Readonly<Record<number, string>> = { 500: 'Internal error', 503: 'Service unavailable' };

export class ApiError extends Error {
  readonly status: number;
  readonly messages: readonly ErrorMessage[];
  /** Response headers that belong to the error (`Retry-After` of a 429). */
  readonly headers: Readonly<Record<string, string>>;
  readonly flavour: ErrorFlavour;

  constructor(
    status: number,
    messages: MessageInput | readonly MessageInput[],
    options?: { cause?: unknown; headers?: Record<string, string>; flavour?: ErrorFlavour },
  ) {
    const list = (Array.isArray(messages) ? messages : [messages]).map(toMessage);
    super(list.map((m) => m.message).join('; '), options);
    this.name = 'ApiError';
    this.status = status;
    this.messages = list;
    this.headers = options?.headers ?? {};
    this.flavour = options?.flavour ?? 'rest';
  }

  /** An error of POST /api/v1/contracts/call, in the web3 module's body. */
  static web3(
    status: number,
    messages: ErrorMessage | readonly ErrorMessage[],
    options?: { cause?: unknown; headers?: Record<string, string> },
  ): ApiError {
    return new ApiError(status, messages as ErrorMessage | ErrorMessage[], { ...options, flavour: 'web3' });
  }

  static badRequest(messages: MessageInput | readonly MessageInput[]): ApiError {
    return new ApiError(400, messages);
  }

  /** `Invalid parameter: <name>`, one message per name, repeats kept (the reference reports each bad value). */
  static invalidParams(names: string | readonly string[]): ApiError {
    return new ApiError(400, invalidParamMessages(names));
  }

  static unknownParams(names: string | readonly string[]): ApiError {
    return new ApiError(400, unknownParamMessages(names));
  }

  /** `Invalid parameter usage: block.hash - cannot combine block.number and block.hash` */
  static invalidParamUsage(name: string, reason: string): ApiError {
    return new ApiError(400, invalidParamUsageMessage(name, reason));
  }

  static notFound(message = 'Not found'): ApiError {
    return new ApiError(404, message);
  }

  /** Basic auth credentials that match no configured user. */
  static unauthorized(message = 'Invalid credentials'): ApiError {
    return new ApiError(401, message);
  }

  static internal(cause?: unknown): ApiError {
    return new ApiError(500, HIDDEN_MESSAGES[500] as string, { cause });
  }

  /** The database failed or timed out. */
  static serviceUnavailable(cause?: unknown): ApiError {
    return new ApiError(503, HIDDEN_MESSAGES[503] as string, { cause });
  }
}

export const invalidParamMessages = (names: string | readonly string[]): string[] =>
  (typeof names === 'string' ? [names] : names).map((name) => `Invalid parameter: ${name}`);

export const unknownParamMessages = (names: string | readonly string[]): string[] =>
  (typeof names === 'string' ? [names] : names).map((name) => `Unknown query parameter: ${name}`);

export const invalidParamUsageMessage = (name: string, reason: string): string =>
  `Invalid parameter usage: ${name} - ${reason}`;

/** A parameter repeated more often than `query.maxRepeatedQueryParameters` allows (after merging key cases). */
export const tooManyValuesMessage = (name: string, count: number, max: number): string =>
  `Parameter values count exceeds maximum number allowed: ${name} count: ${count} max: ${max}`;

export function errorBody(messages: readonly ErrorMessage[], flavour: ErrorFlavour = 'rest'): ErrorBody {
  if (flavour === 'web3') {
    return {
      _status: {
        messages: messages.map(({ message, detail, data }) => ({ message, detail: detail ?? '', data: data ?? '' })),
      },
    };
  }
  return {
    _status: {
      messages: messages.map(({ message, detail, data }) => {
        const out: ErrorMessage = { message };
        if (detail) out.detail = detail;
        if (data !== undefined) out.data = data;
        return out;
      }),
    },
  };
}

/**
 * The status and body for anything thrown while serving a request. A database that failed is the reference's
 * `DbError`: 503. Other errors that are not an `ApiError` are unexpected: they become a bare 500 so no internal
 * detail reaches the client (the caller logs them).
 */
export function toErrorResponse(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof DatabaseError)
    return { status: 503, body: errorBody([{ message: HIDDEN_MESSAGES[503] as string }]) };
  if (!(error instanceof ApiError))
    return { status: 500, body: errorBody([{ message: HIDDEN_MESSAGES[500] as string }]) };
  if (error.flavour === 'web3') return { status: error.status, body: errorBody(error.messages, 'web3') };
  const hidden = HIDDEN_MESSAGES[error.status];
  return { status: error.status, body: errorBody(hidden === undefined ? error.messages : [{ message: hidden }]) };
}
