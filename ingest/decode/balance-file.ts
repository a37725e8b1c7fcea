/**
 * Account balance stream files (`<instant>_Balances.csv`, `<instant>_Balances.pb.gz`): every account's hbar balance
 * and token balances at one consensus time, as the network exported them. Read as the reference importer's readers
 * read them (`reader/balance/`): a `.pb` file is gzip protobuf `AllAccountBalances` (ProtoBalanceFileReader); any
 * other is CSV, version 2 when its first line starts with `# version:2` (BalanceFileReaderImplV2), else version 1
 * (BalanceFileReaderImplV1). The file hash the nodes signed is SHA-384 of the CSV bytes, or of the protobuf
 * after gunzip. Balance files are not chained.
 */
import { hapi } from '../../proto/hapi.ts';
import { parseCsvBalances } from './balance-csv.ts';
import { FormatError } from './byte-reader.ts';
import { sha384 } from './hash.ts';
import { idOf, timestampNanos } from './ids.ts';
import { decodePlain } from './plain-decoder.ts';
import { unzipped } from './record-file.ts';

export interface TokenUnitBalance {
  readonly tokenId: bigint;
  readonly balance: bigint;
}

export interface AccountBalanceEntry {
  /** Encoded entity id (shard, realm, num). */
  readonly accountId: bigint;
  readonly balance: bigint;
  readonly tokens: readonly TokenUnitBalance[];
}

export interface ParsedBalanceFile {
  /** The data file name as listed, compression suffix included (`…Z_Balances.pb.gz`). */
  readonly name: string;
  readonly consensusTimestamp: bigint;
  /** SHA-384 of the CSV bytes, or of the decompressed protobuf: the hash the nodes signed. */
  readonly fileHash: Uint8Array;
  readonly accounts: readonly AccountBalanceEntry[];
  /** CSV lines that could not be read, with why; the importer logs and skips each. */
  readonly invalidLines: readonly string[];
}

/** `X_Balances.pb.gz` / `X_Balances.pb` → protobuf; anything else is read as CSV. */
export function isProtoBalanceName(name: string): boolean {
  return /\.pb(\.gz)?$/.test(name);
}

export function parseBalanceFile(name: string, downloaded: Uint8Array): ParsedBalanceFile {
  if (isProtoBalanceName(name)) return parseProtoBalances(name, unzipped(downloaded));
  const csv = parseCsvBalances(downloaded);
  return { name, fileHash: sha384(downloaded), ...csv };
}

interface PlainTokenBalance {
  tokenId?: unknown;
  balance?: bigint;
}

interface PlainAccountBalances {
  accountID?: unknown;
  hbarBalance?: bigint;
  tokenUnitBalances?: PlainTokenBalance[];
}

/** uint64 on the wire, a Java long in the importer: read as the signed 64-bit value. */
const asLong = (value: bigint | undefined) => BigInt.asIntN(64, value ?? 0n);

function parseProtoBalances(name: string, bytes: Uint8Array): ParsedBalanceFile {
  let message: { consensusTimestamp?: unknown; allAccounts?: PlainAccountBalances[] };
  try {
    message = decodePlain(hapi().AllAccountBalances, bytes);
  } catch (error) {
    throw new FormatError(`unreadable AllAccountBalances: ${(error as Error).message}`);
  }
  if (message.consensusTimestamp === undefined) throw new FormatError('Missing required consensusTimestamp field');
  const accounts = (message.allAccounts ?? []).map((entry) => ({
    accountId: entityIdOf(entry.accountID, 'accountNum'),
    balance: asLong(entry.hbarBalance),
    tokens: (entry.tokenUnitBalances ?? []).map((token) => ({
      tokenId: entityIdOf(token.tokenId, 'tokenNum'),
      balance: asLong(token.balance),
    })),
  }));
  return {
    name,
    consensusTimestamp: timestampNanos(message.consensusTimestamp),
    fileHash: sha384(bytes),
    accounts,
    invalidLines: [],
  };
}

function entityIdOf(message: unknown, numField: string): bigint {
  try {
    return idOf(message, numField);
  } catch (error) {
    throw new FormatError((error as Error).message);
  }
}
