import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { STREAMS } from '../testing/fixtures.ts';
import { parseBalanceFile } from './balance-file.ts';
import { toHex } from './hash.ts';
import { parseSignatureFile } from './signature-file.ts';

const BALANCES = path.join(STREAMS, 'data/accountBalances');
const read = (file: string) => new Uint8Array(readFileSync(path.join(BALANCES, file)));
const csv = (text: string) => parseBalanceFile('2020-01-01T00_00_00Z_Balances.csv', new TextEncoder().encode(text));
const sum = (values: readonly { balance: bigint }[]) => values.reduce((total, v) => total + v.balance, 0n);

describe('account balance files', () => {
  it('reads a version 1 CSV file, its hash being the one its nodes signed', () => {
    const file = parseBalanceFile(
      '2019-08-30T18_15_00.016002001Z_Balances.csv',
      read('v1/balance0.0.3/2019-08-30T18_15_00.016002001Z_Balances.csv'),
    );
    const signed = parseSignatureFile(read('v1/balance0.0.3/2019-08-30T18_15_00.016002001Z_Balances.csv_sig'));
    expect(file.consensusTimestamp).toBe(1567188900016002001n);
    expect(file.accounts).toHaveLength(25391);
    expect(file.accounts.slice(0, 2)).toEqual([
      { accountId: 1n, balance: 250n, tokens: [] },
      { accountId: 2n, balance: 2588856875379417355n, tokens: [] },
    ]);
    expect(sum(file.accounts)).toBe(5_000_000_000_000_000_000n);
    expect(toHex(file.fileHash)).toBe(toHex(signed.file.hash));
    expect(file.invalidLines).toEqual([]);
  });

  it('reads a version 2 CSV file with token balances', () => {
    const file = parseBalanceFile(
      'x_Balances.csv',
      read('v2/balance0.0.3/2020-09-22T04_25_00.083212003Z_Balances.csv'),
    );
    expect(file.consensusTimestamp).toBe(1600748700083212003n);
    expect(file.accounts).toHaveLength(106);
    expect(file.accounts[1]?.tokens).toEqual([
      { tokenId: 1004n, balance: 900n },
      { tokenId: 1005n, balance: 25n },
      { tokenId: 1006n, balance: 9000000n },
      { tokenId: 1010n, balance: 900n },
      { tokenId: 1011n, balance: 25n },
      { tokenId: 1012n, balance: 9000000n },
    ]);
  });

  it('reads a protobuf file, hashing it after gunzip as its signature does', () => {
    const name = '2021-03-10T22_12_56.075092Z_Balances.pb.gz';
    const file = parseBalanceFile(name, read(`mixed/balance0.0.3/${name}`));
    const signed = parseSignatureFile(read('mixed/balance0.0.3/2021-03-10T22_12_56.075092Z_Balances.pb_sig.gz'));
    expect(file.name).toBe(name);
    expect(file.consensusTimestamp).toBe(1615414376075092000n);
    expect(file.accounts).toHaveLength(2485);
    expect(file.accounts.flatMap((a) => a.tokens)).toHaveLength(412);
    expect(toHex(file.fileHash)).toBe(toHex(signed.file.hash));
    const gunzipped = gunzipSync(read(`mixed/balance0.0.3/${name}`));
    expect(parseBalanceFile('x_Balances.pb', new Uint8Array(gunzipped)).fileHash).toEqual(file.fileHash);
    const proto = parseBalanceFile('x_Balances.pb.gz', read('proto/2021-03-08T20_15_00Z_Balances.pb.gz'));
    expect([proto.consensusTimestamp, proto.accounts.length, proto.accounts.flatMap((a) => a.tokens).length]).toEqual([
      1615234500000000000n,
      10,
      50,
    ]);
  });

  it('skips the lines it cannot read, saying why, as the importer does', () => {
    const file = csv(
      [
        '# version:2',
        '# TimeStamp:2020-01-01T00:00:00.5Z',
        'shardNum,realmNum,accountNum,balance,tokenBalances',
        '0,0,2,100,',
        '0,0,3,-1',
        '1,0,4,5',
        '0,0,5',
        '0,0,6,x',
        '0,0,7,8,!!notproto',
        '',
        ' 0 , 0 , 8 , 9 ',
      ].join('\r\n'),
    );
    expect(file.consensusTimestamp).toBe(1577836800500000000n);
    expect(file.accounts.map((a) => [a.accountId, a.balance])).toEqual([
      [2n, 100n],
      [8n, 9n],
    ]);
    expect(file.invalidLines).toEqual([
      'Invalid account balance line: 0,0,3,-1',
      'Invalid account balance line: 1,0,4,5. Expect shard (0), got shard (1)',
      'Invalid account balance line: 0,0,5',
      'Invalid account balance line: 0,0,6,x',
      'Invalid account balance line: 0,0,7,8,!!notproto',
      'Invalid account balance line: ',
    ]);
  });

  it('finds a version 1 header among other lines, and refuses a file without one', () => {
    expect(
      csv('a header\nTIMESTAMP:2020-01-01T00:00:00Z\n\nshardNum,realmNum,accountNum,balance\n0,0,2,1\n'),
    ).toMatchObject({
      consensusTimestamp: 1577836800000000000n,
      accounts: [{ accountId: 2n, balance: 1n }],
    });
    expect(() => csv('shardNum,realmNum,accountNum,balance\n0,0,2,1\n')).toThrow(
      'Timestamp / column header not found in account balance file',
    );
    expect(() => csv('Timestamp:yesterday\nshard\n')).toThrow('Invalid timestamp header line: Timestamp:yesterday');
    expect(() => csv('# version:2\nshard\n')).toThrow('Timestamp not found in account balance file');
    expect(() => csv('# version:2\n# TimeStamp:2020-01-01T00:00:00Z\n0,0,2,1\n')).toThrow(
      'Column header not found in account balance file',
    );
    expect(() => parseBalanceFile('x_Balances.pb', new Uint8Array([0x12, 0x00]))).toThrow(
      'Missing required consensusTimestamp field',
    );
  });
});
