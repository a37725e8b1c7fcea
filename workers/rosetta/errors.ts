/**
 * The Rosetta API's errors: the reference's catalog (rosetta/app/errors/errors.go), code for code, message for
 * message, with its `retriable` flags, listed in this order by `/network/options`. Mesh requires each code and each
 * message to name one error, so a message never carries request details; those go into `details`.
 */

/** A Mesh `Error` as the wire carries it. */
export interface MeshError {
  readonly code: number;
  readonly message: string;
  readonly retriable: boolean;
  readonly details?: Readonly<Record<string, unknown>>;
}

const CATALOG = {
  AccountNotFound: { code: 100, message: 'Account not found', retriable: true },
  BlockNotFound: { code: 101, message: 'Block not found', retriable: true },
  InvalidAccount: { code: 102, message: 'Invalid Account provided', retriable: false },
  InvalidAmount: { code: 103, message: 'Invalid Amount provided', retriable: false },
  InvalidOperationsAmount: { code: 104, message: 'Invalid Operations amount provided', retriable: false },
  InvalidOperationsTotalAmount: { code: 105, message: 'Operations total amount must be 0', retriable: false },
  InvalidPublicKey: { code: 106, message: 'Invalid Public Key provided', retriable: false },
  InvalidSignatureVerification: { code: 107, message: 'Invalid signature verification', retriable: false },
  InvalidTransactionIdentifier: { code: 108, message: 'Invalid Transaction Identifier provided', retriable: false },
  MultipleOperationTypesPresent: { code: 109, message: 'Only one Operation Type must be present', retriable: false },
  NodeIsStarting: { code: 110, message: 'Node is starting', retriable: true },
  NotImplemented: { code: 111, message: 'Not implemented', retriable: false },
  OperationResultsNotFound: { code: 112, message: 'Operation Results not found', retriable: true },
  OperationTypesNotFound: { code: 113, message: 'Operation Types not found', retriable: true },
  StartMustNotBeAfterEnd: { code: 114, message: 'Start must not be after end', retriable: false },
  TransactionDecodeFailed: { code: 115, message: 'Transaction Decode failed', retriable: false },
  TransactionMarshallingFailed: { code: 116, message: 'Transaction marshalling failed', retriable: false },
  TransactionUnmarshallingFailed: { code: 117, message: 'Transaction unmarshalling failed', retriable: false },
  TransactionSubmissionFailed: { code: 118, message: 'Transaction submission failed', retriable: false },
  TransactionNotFound: { code: 119, message: 'Transaction not found', retriable: true },
  EmptyOperations: { code: 120, message: 'Empty operations provided', retriable: false },
  TransactionInvalidType: { code: 121, message: 'Transaction invalid type', retriable: false },
  TransactionHashFailed: { code: 122, message: 'Transaction hash failed', retriable: false },
  TransactionFreezeFailed: { code: 123, message: 'Transaction freeze failed', retriable: false },
  InvalidArgument: { code: 124, message: 'Invalid argument', retriable: false },
  DatabaseError: { code: 125, message: 'Database error', retriable: true },
  InvalidOperationMetadata: { code: 126, message: 'Invalid operation metadata', retriable: false },
  OperationTypeUnsupported: { code: 127, message: 'Operation type unsupported', retriable: false },
  InvalidOperationType: { code: 128, message: 'Invalid operation type', retriable: false },
  NoSignature: { code: 129, message: 'No signature', retriable: false },
  InvalidOperations: { code: 130, message: 'Invalid operations', retriable: false },
  InvalidToken: { code: 131, message: 'Invalid token', retriable: false },
  TokenNotFound: { code: 132, message: 'Token not found', retriable: false },
  InvalidTransaction: { code: 133, message: 'Invalid transaction', retriable: false },
  InvalidCurrency: { code: 134, message: 'Invalid currency', retriable: false },
  InvalidSignatureType: { code: 135, message: 'Unsupported signature type', retriable: false },
  EndpointNotSupportedInOfflineMode: {
    code: 136,
    message: 'Endpoint not supported in offline mode',
    retriable: false,
  },
  InvalidCurveType: { code: 137, message: 'Invalid curve type', retriable: false },
  InvalidOptions: { code: 138, message: 'Invalid options', retriable: false },
  InvalidTransactionMemo: { code: 139, message: 'Invalid transaction memo', retriable: false },
  NodeAccountIdsEmpty: { code: 140, message: 'Node account IDs are empty', retriable: true },
  MissingNodeAccountIdMetadata: { code: 141, message: 'Missing node_account_id metadata', retriable: false },
  InternalServerError: { code: 500, message: 'Internal Server Error', retriable: true },
} as const satisfies Record<string, MeshError>;

export type RosettaErrorName = keyof typeof CATALOG;

/**
 * edge-mirror's one error of its own: the edge's per-client rate limit (the reference has none). Mesh clients
 * retry a retriable error, and Mesh wants every error a server can return listed in `/network/options`, so it is
 * listed there after the reference's.
 */
export const RATE_LIMITED: MeshError = {
  code: 429,
  message: 'Requests per second rate limit exceeded.',
  retriable: true,
};

/** Every error `/network/options` lists: the reference's catalog in its order, then the rate limit's. */
export const ALL_ERRORS: readonly MeshError[] = [...Object.values(CATALOG), RATE_LIMITED];

/**
 * An error the Rosetta API answers with HTTP 500 and the Mesh `Error` body, as the reference answers every error.
 * `code` 0 is the Mesh SDK's own request checks (a body that does not decode, an unknown network): their message
 * says what was wrong and they are not in the catalog, as with the reference.
 */
export class RosettaError extends Error {
  readonly body: MeshError;
  /** HTTP status: 500 for every Rosetta error; 429 for the edge's rate limit. */
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;

  constructor(body: MeshError, options: { status?: number; headers?: Record<string, string>; cause?: unknown } = {}) {
    super(body.message, { cause: options.cause });
    this.name = 'RosettaError';
    this.body = body;
    this.status = options.status ?? 500;
    this.headers = options.headers ?? {};
  }

  /** The catalog's error of this name, with `details` when given. */
  static of(name: RosettaErrorName, details?: Record<string, unknown>): RosettaError {
    return new RosettaError(details ? { ...CATALOG[name], details } : CATALOG[name]);
  }

  /** A request the Mesh SDK's checks refuse: code 0, not retriable, the check's own message. */
  static request(message: string): RosettaError {
    return new RosettaError({ code: 0, message, retriable: false });
  }
}
