/**
 * The HAPI and record-stream protobuf schema, loaded at runtime from the .proto files that
 * `@hiero-ledger/proto` ships (its flat `src/proto/` copy, where every import is a sibling file). Loading
 * parses ~100 files, so it happens once per process and is shared.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import protobuf from 'protobufjs';

const require = createRequire(import.meta.url);

/** The directory holding the flat .proto set of `@hiero-ledger/proto`. */
export function protoDirectory(): string {
  const pkg = require.resolve('@hiero-ledger/proto/package.json');
  return path.join(path.dirname(pkg), 'src', 'proto');
}

/**
 * A protobufjs root (field names as in the .proto) over `files`: the project's own .proto files by absolute path,
 * HAPI files by bare name. Imports resolve to those own files by name, else to the flat HAPI set. Returned before
 * `resolveAll()`, so a caller can still retype a field.
 */
export function loadProtoRoot(files: readonly string[]): protobuf.Root {
  const dir = protoDirectory();
  const own = new Map(files.filter((file) => path.isAbsolute(file)).map((file) => [path.basename(file), file]));
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => own.get(path.basename(target)) ?? path.join(dir, path.basename(target));
  root.loadSync([...files], { keepCase: true });
  return root;
}

/** The entry files; protobufjs follows their imports. */
const ENTRY_FILES = [
  'services_transaction_contents.proto',
  'services_transaction.proto',
  'services_transaction_record.proto',
  'services_basic_types.proto',
  'streams_record_stream_file.proto',
  'streams_sidecar_file.proto',
  'streams_signature_file.proto',
  'streams_account_balance_file.proto',
];

export interface HapiTypes {
  readonly root: protobuf.Root;
  readonly Transaction: protobuf.Type;
  readonly SignedTransaction: protobuf.Type;
  readonly TransactionBody: protobuf.Type;
  readonly TransactionRecord: protobuf.Type;
  readonly RecordStreamFile: protobuf.Type;
  readonly SidecarFile: protobuf.Type;
  readonly SignatureFile: protobuf.Type;
  readonly AllAccountBalances: protobuf.Type;
  readonly TokenBalances: protobuf.Type;
  readonly NodeAddressBook: protobuf.Type;
  readonly Key: protobuf.Type;
  readonly KeyList: protobuf.Type;
}

let loaded: HapiTypes | undefined;

/** Loads (once) and returns the message types the ingest decoders use. Field names keep the .proto spelling. */
export function hapi(): HapiTypes {
  if (loaded) return loaded;
  const root = loadProtoRoot(ENTRY_FILES);
  // The transaction memo is stored as the exact bytes sent (the reference keeps `getMemoBytes()`), which a
  // UTF-8 string decode would not preserve for invalid sequences; bytes and string share a wire type.
  const memo = root.lookupType('proto.TransactionBody').fields.memo;
  if (memo) memo.type = 'bytes';
  root.resolveAll();
  const type = (name: string) => root.lookupType(name);
  loaded = {
    root,
    Transaction: type('proto.Transaction'),
    SignedTransaction: type('proto.SignedTransaction'),
    TransactionBody: type('proto.TransactionBody'),
    TransactionRecord: type('proto.TransactionRecord'),
    RecordStreamFile: type('proto.RecordStreamFile'),
    SidecarFile: type('proto.SidecarFile'),
    SignatureFile: type('proto.SignatureFile'),
    AllAccountBalances: type('proto.AllAccountBalances'),
    TokenBalances: type('proto.TokenBalances'),
    NodeAddressBook: type('proto.NodeAddressBook'),
    Key: type('proto.Key'),
    KeyList: type('proto.KeyList'),
  };
  return loaded;
}
