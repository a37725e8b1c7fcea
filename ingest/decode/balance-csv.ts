/**
 * CSV account balance files, read line by line as the reference importer reads them
 * (`reader/balance/BalanceFileReaderImplV1`, `…V2`, `line/AccountBalanceLineParserV1`, `…V2`):
 * - version 1: within the first 10 lines a `TimeStamp:<ISO instant>` line (any case), then the column line starting
 *   `shard`; data lines `shard,realm,account,balance`;
 * - version 2: `# version:2`, `# TimeStamp:<ISO instant>`, the column line, then `shard,realm,account,balance[,tokens]`
 *   where tokens is the base64 of a protobuf `TokenBalances` (may be empty).
 * A header that is not there fails the file; a data line that cannot be read (wrong field count, not a number, a
 * negative value, a shard other than 0, unreadable token balances) is skipped, and said so.
 */
import { hapi } from '../../proto/hapi.ts';
import type { AccountBalanceEntry, TokenUnitBalance } from './balance-file.ts';
import { FormatError } from './byte-reader.ts';
import { encodeEntityId, idOf } from './ids.ts';
import { decodePlain } from './plain-decoder.ts';

const V1_TIMESTAMP = 'timestamp:';
const V2_VERSION = '# version:2';
const V2_TIMESTAMP = '# TimeStamp:';
const COLUMN_HEADER = 'shard';
const MAX_V1_HEADER_LINES = 10;
const INT64_MAX = (1n << 63n) - 1n;
const INT32_MAX = 2_147_483_647n;
const ISO_INSTANT = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?Z$/;

export interface CsvBalances {
  readonly consensusTimestamp: bigint;
  readonly accounts: AccountBalanceEntry[];
  readonly invalidLines: string[];
}

const startsWithIgnoringCase = (line: string | undefined, prefix: string) =>
  line !== undefined && line.slice(0, prefix.length).toLowerCase() === prefix.toLowerCase();

/** An ISO-8601 instant (`2019-08-30T18:15:00.016002001Z`) in nanoseconds; throws on anything else. */
function instantNanos(text: string, line: string): bigint {
  const match = ISO_INSTANT.exec(text);
  const millis = match?.[1] ? Date.parse(`${match[1]}Z`) : Number.NaN;
  if (!match || Number.isNaN(millis)) throw new FormatError(`Invalid timestamp header line: ${line}`);
  return BigInt(millis) * 1_000_000n + BigInt((match[2] ?? '').padEnd(9, '0'));
}

/** Java's line splitting: `\n`, `\r\n` or `\r` end a line; no empty last line after a final line end. */
function lines(text: string): string[] {
  const out = text.split(/\r\n|\r|\n/);
  if (out.at(-1) === '') out.pop();
  return out;
}

export function parseCsvBalances(bytes: Uint8Array): CsvBalances {
  const all = lines(new TextDecoder().decode(bytes));
  const v2 = startsWithIgnoringCase(all[0], V2_VERSION);
  const { consensusTimestamp, dataFrom } = v2 ? v2Header(all) : v1Header(all);
  const accounts: AccountBalanceEntry[] = [];
  const invalidLines: string[] = [];
  for (let i = dataFrom; i < all.length; i++) {
    const line = all[i] as string;
    try {
      accounts.push(parseLine(line, v2));
    } catch (error) {
      if (!(error instanceof FormatError)) throw error;
      invalidLines.push(error.message);
    }
  }
  return { consensusTimestamp, accounts, invalidLines };
}

function v1Header(all: readonly string[]): { consensusTimestamp: bigint; dataFrom: number } {
  let consensusTimestamp: bigint | undefined;
  for (let i = 0; i < Math.min(MAX_V1_HEADER_LINES, all.length); i++) {
    const line = all[i] as string;
    if (startsWithIgnoringCase(line, V1_TIMESTAMP)) {
      consensusTimestamp = instantNanos(line.slice(V1_TIMESTAMP.length), line);
    } else if (startsWithIgnoringCase(line, COLUMN_HEADER)) {
      if (consensusTimestamp === undefined) break;
      return { consensusTimestamp, dataFrom: i + 1 };
    }
  }
  throw new FormatError('Timestamp / column header not found in account balance file');
}

function v2Header(all: readonly string[]): { consensusTimestamp: bigint; dataFrom: number } {
  const timestampLine = all[1];
  if (timestampLine === undefined || !timestampLine.startsWith(V2_TIMESTAMP)) {
    throw new FormatError('Timestamp not found in account balance file');
  }
  const consensusTimestamp = instantNanos(timestampLine.slice(V2_TIMESTAMP.length), timestampLine);
  if (!all[2]?.startsWith(COLUMN_HEADER)) throw new FormatError('Column header not found in account balance file');
  return { consensusTimestamp, dataFrom: 3 };
}

/** Java's Long.parseLong / Integer.parseInt: an optional sign and decimal digits within range. */
function integer(text: string, max: bigint, line: string): bigint {
  if (!/^[+-]?\d+$/.test(text)) throw invalid(line);
  const value = BigInt(text);
  if (value > max || value < -max - 1n) throw invalid(line);
  return value;
}

const invalid = (line: string) => new FormatError(`Invalid account balance line: ${line}`);

function parseLine(line: string, v2: boolean): AccountBalanceEntry {
  const parts = line
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
  if (parts.length !== 4 && !(v2 && parts.length === 5)) throw invalid(line);
  const [shard, realm, account, balance] = [
    integer(parts[0] as string, INT64_MAX, line),
    integer(parts[1] as string, INT32_MAX, line),
    integer(parts[2] as string, INT32_MAX, line),
    integer(parts[3] as string, INT64_MAX, line),
  ];
  if (shard < 0n || realm < 0n || account < 0n || balance < 0n) throw invalid(line);
  if (shard !== 0n) {
    throw new FormatError(`Invalid account balance line: ${line}. Expect shard (0), got shard (${shard})`);
  }
  let accountId: bigint;
  try {
    accountId = encodeEntityId(shard, realm, account);
  } catch {
    throw invalid(line);
  }
  const tokens = parts[4] === undefined ? [] : tokenBalances(parts[4], line);
  return { accountId, balance, tokens };
}

function tokenBalances(base64: string, line: string): TokenUnitBalance[] {
  try {
    const message = decodePlain(hapi().TokenBalances, new Uint8Array(Buffer.from(base64, 'base64'))) as {
      tokenBalances?: { tokenId?: unknown; balance?: bigint }[];
    };
    return (message.tokenBalances ?? []).map((token) => ({
      tokenId: idOf(token.tokenId, 'tokenNum'),
      balance: BigInt.asIntN(64, token.balance ?? 0n),
    }));
  } catch {
    throw invalid(line);
  }
}
