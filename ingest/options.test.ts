import { describe, expect, it } from 'vitest';
import { HELP, parseIngestOptions } from './options.ts';

const parse = (argv: string[], env: Record<string, string> = {}) => parseIngestOptions(argv, env);

describe('ingest options', () => {
  it('takes a negative block number after a space, as the README writes it', () => {
    const parsed = parse(['--stream', 'blocks', '--source', 'dir', '--start-block', '-1', '--until-idle']);
    expect(parsed).toMatchObject({ options: { startBlock: -1n, stream: 'blocks', untilIdle: true } });
    expect(parse(['--source', 'dir', '--start-block=-1'])).toMatchObject({ options: { startBlock: -1n } });
  });

  it('falls back to the INGEST_* variables, the arguments winning', () => {
    const env = { INGEST_SOURCE: 'from-env', INGEST_NETWORK: 'testnet', INGEST_END_BLOCK: '9' };
    expect(parse([], env)).toMatchObject({ options: { source: 'from-env', network: 'testnet', endBlock: 9n } });
    expect(parse(['--source', 'arg'], env)).toMatchObject({ options: { source: 'arg' } });
  });

  it('reads a block node source as blocks, and defaults to records and a 2 s poll', () => {
    expect(parse(['--source', 'blocknode://host:1'])).toMatchObject({ options: { stream: 'blocks' } });
    expect(parse(['--source', 'dir'])).toMatchObject({ options: { stream: 'records', pollIntervalMs: 2000 } });
  });

  it.each([
    [['--source', 'dir', '--bogus'], 'unknown option --bogus'],
    [
      ['--source'],
      '--source needs a value: <dir | s3://bucket/prefix | gs://bucket/prefix | blocknode://host:port[?tls=1]>',
    ],
    [
      ['--source', '--until-idle'],
      '--source needs a value: <dir | s3://bucket/prefix | gs://bucket/prefix | blocknode://host:port[?tls=1]>',
    ],
    [['--source', 'dir', 'extra'], 'unexpected argument "extra"'],
    [['--source', 'dir', '--until-idle=yes'], '--until-idle takes no value'],
    [['--until-idle'], '--source is required (or INGEST_SOURCE)'],
    [['--source', 'dir', '--stream', 'block'], '--stream must be records or blocks, not "block"'],
    [['--source', 'dir', '--start-block', '-2'], '--start-block must be -1 or a block number, not "-2"'],
    [['--source', 'dir', '--end-block', 'x'], '--end-block must be -1 or a block number, not "x"'],
    [['--source', 'dir', '--poll-interval', '0'], '--poll-interval must be a positive number of milliseconds'],
  ])('refuses %j with one line: %s', (argv, error) => {
    expect(parse(argv)).toEqual({ error });
  });

  it("follows the importer's balance settings: the first balance file and snapshots by default, not both at once", () => {
    const downloader = 'HIERO_MIRROR_IMPORTER_DOWNLOADER_BALANCE_ENABLED';
    const historical = 'HIERO_MIRROR_IMPORTER_PARSER_RECORD_HISTORICALBALANCE_ENABLED';
    expect(parse(['--source', 'dir'])).toMatchObject({
      options: { balanceDownloader: false, historicalBalance: true },
    });
    expect(parse(['--source', 'dir'], { [downloader]: 'TRUE', [historical]: 'false' })).toMatchObject({
      options: { balanceDownloader: true, historicalBalance: false },
    });
    expect(parse(['--source', 'dir'], { [downloader]: 'true' })).toEqual({
      error:
        "The two configuration properties can't be both true: hiero.mirror.importer.downloader.balance.enabled and hiero.mirror.importer.parser.record.historicalBalance.enabled",
    });
    expect(parse(['--source', 'dir'], { [historical]: 'no' })).toEqual({
      error: `${historical} must be true or false, not "no"`,
    });
  });

  it('answers --help (or -h) whatever else is given, and the help names every option', () => {
    expect(parse(['--help'])).toEqual({ help: true });
    expect(parse(['--source', 'dir', '-h'])).toEqual({ help: true });
    for (const option of ['source', 'stream', 'network', 'address-book', 'until-idle', 'poll-interval']) {
      expect(HELP).toContain(`--${option}`);
    }
    for (const option of ['start-block', 'end-block', 'block-source', 'help']) expect(HELP).toContain(`--${option}`);
  });
});
