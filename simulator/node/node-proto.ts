/**
 * The consensus node's gRPC surface, loaded from the HAPI .proto files of `@hiero-ledger/proto` (proto/hapi.ts's
 * loader): the eight services a node serves, their methods (a method taking a Transaction submits, one taking a
 * Query answers), and the request and response messages. The transaction memo is read as bytes, as proto/hapi.ts
 * reads it, so the exact bytes sent reach the record stream.
 */
import type protobuf from 'protobufjs';
import { loadProtoRoot } from '../../proto/hapi.ts';

export const NODE_SERVICES = [
  'CryptoService',
  'TokenService',
  'ConsensusService',
  'FileService',
  'SmartContractService',
  'ScheduleService',
  'UtilService',
  'NetworkService',
] as const;

const FILES = [
  'services_crypto_service.proto',
  'services_token_service.proto',
  'services_consensus_service.proto',
  'services_file_service.proto',
  'services_smart_contract_service.proto',
  'services_schedule_service.proto',
  'services_util_service.proto',
  'services_network_service.proto',
  'services_transaction_contents.proto',
  'services_schedulable_transaction_body.proto',
];

export interface NodeMethod {
  readonly service: string;
  readonly name: string;
  readonly kind: 'transaction' | 'query';
}

export interface NodeTypes {
  readonly Transaction: protobuf.Type;
  readonly SignedTransaction: protobuf.Type;
  readonly TransactionBody: protobuf.Type;
  readonly SchedulableTransactionBody: protobuf.Type;
  readonly TransactionResponse: protobuf.Type;
  readonly Query: protobuf.Type;
  readonly Response: protobuf.Type;
  readonly Key: protobuf.Type;
  readonly methods: readonly NodeMethod[];
  /** ResponseCodeEnum name → number. */
  readonly codes: Readonly<Record<string, number>>;
}

let loaded: NodeTypes | undefined;

export function nodeTypes(): NodeTypes {
  if (loaded) return loaded;
  const root = loadProtoRoot(FILES);
  for (const name of ['proto.TransactionBody', 'proto.SchedulableTransactionBody']) {
    const memo = root.lookupType(name).fields.memo;
    if (memo) memo.type = 'bytes';
  }
  root.resolveAll();
  const methods: NodeMethod[] = [];
  for (const service of NODE_SERVICES) {
    for (const method of Object.values(root.lookupService(`proto.${service}`).methods)) {
      const kind = method.requestType === 'Transaction' ? 'transaction' : 'query';
      methods.push({ service, name: method.name, kind });
    }
  }
  const type = (name: string) => root.lookupType(name);
  loaded = {
    Transaction: type('proto.Transaction'),
    SignedTransaction: type('proto.SignedTransaction'),
    TransactionBody: type('proto.TransactionBody'),
    SchedulableTransactionBody: type('proto.SchedulableTransactionBody'),
    TransactionResponse: type('proto.TransactionResponse'),
    Query: type('proto.Query'),
    Response: type('proto.Response'),
    Key: type('proto.Key'),
    methods,
    codes: root.lookupEnum('proto.ResponseCodeEnum').values,
  };
  return loaded;
}

/** The number of a ResponseCodeEnum name; throws on a name the enum lacks (a typo here is a bug). */
export function code(name: string): number {
  const value = nodeTypes().codes[name];
  if (value === undefined) throw new Error(`node: no response code ${name}`);
  return value;
}

/** Plain objects as the handlers read them: 64-bit values as decimal strings, enums as numbers, bytes as Buffers. */
export const DECODE_OPTIONS: protobuf.IConversionOptions = { longs: String, enums: Number, defaults: false };
