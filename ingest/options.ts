/**
 * The ingest CLI's options: what `--help` lists, how arguments and their INGEST_* variables are read, and the one
 * line a wrong argument gets. Reading stops at the first problem; nothing here touches a database or a source.
 */

interface OptionSpec {
  readonly name: string;
  /** The value's form in the help text; absent for a switch. */
  readonly value?: string;
  /** The environment variable used when the option is not given. */
  readonly env?: string;
  readonly help: string;
}

const OPTIONS: readonly OptionSpec[] = [
  {
    name: 'source',
    value: '<dir | s3://bucket/prefix | gs://bucket/prefix | blocknode://host:port[?tls=1]>',
    env: 'INGEST_SOURCE',
    help: 'where the stream files are read: a directory or bucket of record streams (or of block files with --stream blocks), or a block node',
  },
  {
    name: 'stream',
    value: '<records | blocks>',
    env: 'INGEST_STREAM',
    help: 'what a directory or bucket holds (default: records; a blocknode:// source is always blocks)',
  },
  {
    name: 'network',
    value: '<name>',
    env: 'INGEST_NETWORK',
    help: "network folder of the node-id layout, and the network's bootstrap address book",
  },
  {
    name: 'address-book',
    value: '<file>',
    env: 'INGEST_ADDRESS_BOOK',
    help: 'a NodeAddressBook protobuf to verify with until the stream updates 0.0.102 (needed on an empty database)',
  },
  {
    name: 'until-idle',
    help: 'exit once the source has nothing new, instead of polling',
  },
  {
    name: 'poll-interval',
    value: '<ms>',
    help: 'milliseconds between looks at the source for new files (default: 2000)',
  },
  {
    name: 'signature-wait',
    value: '<ms>',
    env: 'INGEST_SIGNATURE_WAIT',
    help: 'how long a polling run waits for the signature files of a file still arriving before it logs the file as rejected (default: 30000)',
  },
  {
    name: 'start-block',
    value: '<n | -1>',
    env: 'INGEST_START_BLOCK',
    help: 'on a database with no blocks yet, the first block to read (-1: the first the source has; default: 0)',
  },
  {
    name: 'end-block',
    value: '<n>',
    env: 'INGEST_END_BLOCK',
    help: 'the last block to read',
  },
  {
    name: 'block-source',
    value: '<dir | s3://… | gs://… | blocknode://…>',
    env: 'INGEST_BLOCK_SOURCE',
    help: 'beside a record stream source: block files or a block node to switch to at the cutover',
  },
  { name: 'help', help: 'this text' },
];

/** The reference importer's settings the ingest follows, by their variables (true or false). */
const BALANCE_DOWNLOADER = 'HIERO_MIRROR_IMPORTER_DOWNLOADER_BALANCE_ENABLED';
const HISTORICAL_BALANCE = 'HIERO_MIRROR_IMPORTER_PARSER_RECORD_HISTORICALBALANCE_ENABLED';

export const HELP = [
  'usage: npm run ingest -- --source <…> [options]   (DATABASE_URL: the database; default: the one npm start runs)',
  '',
  ...OPTIONS.map((option) => {
    const head = `  --${option.name}${option.value ? ` ${option.value}` : ''}`;
    return `${head}\n      ${option.help}${option.env ? ` (${option.env})` : ''}`;
  }),
  '',
  'Account balance files (accountBalances/ beside recordstreams/, or balance/ beside record/) are read as the',
  `reference importer reads them: only the first unless ${BALANCE_DOWNLOADER}=true (default false),`,
  `which needs ${HISTORICAL_BALANCE}=false (default true: balance snapshots every 15 minutes).`,
].join('\n');

export interface IngestOptions {
  source: string;
  stream: 'records' | 'blocks';
  network: string | undefined;
  addressBook: string | undefined;
  untilIdle: boolean;
  pollIntervalMs: number;
  signatureWaitMs: number;
  startBlock: bigint | undefined;
  endBlock: bigint | undefined;
  blockSource: string | undefined;
  /** `hiero.mirror.importer.downloader.balance.enabled`: every balance file, not only the first. */
  balanceDownloader: boolean;
  /** `hiero.mirror.importer.parser.record.historicalBalance.enabled`: balance snapshots from the ingested state. */
  historicalBalance: boolean;
}

export type ParsedArguments = { help: true } | { error: string } | { options: IngestOptions };

class ArgumentError extends Error {}

/** A negative number stands as an option's value (`--start-block -1`), not as an option of its own. */
const NEGATIVE_NUMBER = /^-\d+$/;

function readArguments(argv: readonly string[]): Map<string, string | true> {
  const given = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] ?? '';
    if (argument === '-h') return new Map([['help', true]]);
    const match = /^--([^=]+)(?:=(.*))?$/s.exec(argument);
    if (!match?.[1]) throw new ArgumentError(`unexpected argument ${JSON.stringify(argument)}`);
    const spec = OPTIONS.find((option) => option.name === match[1]);
    if (!spec) throw new ArgumentError(`unknown option --${match[1]}`);
    if (!spec.value) {
      if (match[2] !== undefined) throw new ArgumentError(`--${spec.name} takes no value`);
      given.set(spec.name, true);
      continue;
    }
    let value = match[2];
    const next = argv[i + 1];
    if (value === undefined && next !== undefined && (!next.startsWith('-') || NEGATIVE_NUMBER.test(next))) {
      value = next;
      i++;
    }
    if (value === undefined || value === '') throw new ArgumentError(`--${spec.name} needs a value: ${spec.value}`);
    given.set(spec.name, value);
  }
  return given;
}

function setting(env: Readonly<Record<string, string | undefined>>, name: string, fallback: boolean): boolean {
  const value = env[name]?.trim().toLowerCase();
  if (value === undefined || value === '') return fallback;
  if (value !== 'true' && value !== 'false')
    throw new ArgumentError(`${name} must be true or false, not ${JSON.stringify(env[name])}`);
  return value === 'true';
}

function blockNumber(value: string | undefined, name: string): bigint | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value) || BigInt(value) < -1n) {
    throw new ArgumentError(`--${name} must be -1 or a block number, not ${JSON.stringify(value)}`);
  }
  return BigInt(value);
}

/** Reads `argv` (the arguments after `npm run ingest --`), with the INGEST_* variables of `env` as fallbacks. */
export function parseIngestOptions(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): ParsedArguments {
  try {
    const given = readArguments(argv);
    if (given.has('help')) return { help: true };
    const text = (name: string): string | undefined => {
      const value = given.get(name);
      if (typeof value === 'string') return value;
      const variable = OPTIONS.find((option) => option.name === name)?.env;
      return variable ? env[variable] || undefined : undefined;
    };
    const source = text('source');
    if (!source) throw new ArgumentError('--source is required (or INGEST_SOURCE)');
    const stream = text('stream') ?? 'records';
    if (stream !== 'records' && stream !== 'blocks') {
      throw new ArgumentError(`--stream must be records or blocks, not ${JSON.stringify(stream)}`);
    }
    const pollIntervalMs = Number(text('poll-interval') ?? '2000');
    // a value that is not a positive number would make the polling loop spin
    if (!Number.isFinite(pollIntervalMs) || pollIntervalMs <= 0) {
      throw new ArgumentError('--poll-interval must be a positive number of milliseconds');
    }
    const signatureWaitMs = Number(text('signature-wait') ?? '30000');
    if (!Number.isFinite(signatureWaitMs) || signatureWaitMs < 0) {
      throw new ArgumentError('--signature-wait must be a number of milliseconds, 0 or more');
    }
    const options: IngestOptions = {
      source,
      stream: source.startsWith('blocknode://') ? 'blocks' : stream,
      network: text('network'),
      addressBook: text('address-book'),
      untilIdle: given.get('until-idle') === true,
      pollIntervalMs,
      signatureWaitMs,
      startBlock: blockNumber(text('start-block'), 'start-block'),
      endBlock: blockNumber(text('end-block'), 'end-block'),
      blockSource: text('block-source'),
      balanceDownloader: setting(env, BALANCE_DOWNLOADER, false),
      historicalBalance: setting(env, HISTORICAL_BALANCE, true),
    };
    if (options.balanceDownloader && options.historicalBalance) {
      // The importer refuses to start so (HistoricalBalanceProperties.init), in these words.
      throw new ArgumentError(
        "The two configuration properties can't be both true: hiero.mirror.importer.downloader.balance.enabled and hiero.mirror.importer.parser.record.historicalBalance.enabled",
      );
    }
    return { options };
  } catch (error) {
    if (error instanceof ArgumentError) return { error: error.message };
    throw error;
  }
}
