import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addressBook, BOOK_FOR, RECORDSTREAMS, STREAMS } from '../testing/fixtures.ts';
import { agreedHashes, checkDataFile } from '../verify/consensus.ts';
import { nodeKeysOf } from '../verify/node-keys.ts';
import { parseAddressBook } from './address-book.ts';
import { toHex } from './hash.ts';
import { parseRecordFile } from './record-file.ts';
import { decodeRecordItem } from './record-item.ts';
import { parseSidecarFile } from './sidecar-file.ts';
import { parseSignatureFile } from './signature-file.ts';

const ZERO = '0'.repeat(96);

/** MANIFEST.md facts per record file: [folder, name, version, count, start, end, previous, hash, fileHash, metadataHash?, block?, size] */
const FACTS = [
  [
    'v1',
    '2019-07-01T14_13_00.317763Z.rcd',
    1,
    15,
    1561990380317763000n,
    1561990399074934000n,
    'f423447a3d5a531a07426070e511555283daae063706242590949116f717a0524e4dd18f9d64e66c73982d475401db04',
    '333d6940254659533fd6b939033e59c57fe8f4ff78375d1e687c032918aa0b7b8179c7fd403754274a8c91e0b6c0195a',
    '333d6940254659533fd6b939033e59c57fe8f4ff78375d1e687c032918aa0b7b8179c7fd403754274a8c91e0b6c0195a',
    undefined,
    undefined,
    4898,
  ],
  [
    'v1',
    '2019-07-01T14_29_00.302068Z.rcd',
    1,
    69,
    1561991340302068000n,
    1561991353226225001n,
    '333d6940254659533fd6b939033e59c57fe8f4ff78375d1e687c032918aa0b7b8179c7fd403754274a8c91e0b6c0195a',
    '1faf198f8fdbefa59bde191f214d73acdc4f5c0f434677a7edf9591b129e21aea90a5b3119d2802cee522e7be6bc8830',
    '1faf198f8fdbefa59bde191f214d73acdc4f5c0f434677a7edf9591b129e21aea90a5b3119d2802cee522e7be6bc8830',
    undefined,
    undefined,
    22347,
  ],
  [
    'v2',
    '2019-08-30T18_10_00.419072Z.rcd',
    2,
    19,
    1567188600419072000n,
    1567188604906443001n,
    ZERO,
    '591558e059bd1629ee386c4e35a6875b4c67a096718f5d225772a651042715189414df7db5588495efb2a85dc4a0ffda',
    '591558e059bd1629ee386c4e35a6875b4c67a096718f5d225772a651042715189414df7db5588495efb2a85dc4a0ffda',
    undefined,
    undefined,
    8515,
  ],
  [
    'v2',
    '2019-08-30T18_10_05.249678Z.rcd',
    2,
    15,
    1567188605249678000n,
    1567188609705382001n,
    '591558e059bd1629ee386c4e35a6875b4c67a096718f5d225772a651042715189414df7db5588495efb2a85dc4a0ffda',
    '5ed51baeff204eb6a2a68b76bbaadcb9b6e7074676c1746b99681d075bef009e8d57699baaa6342feec4e83726582d36',
    '5ed51baeff204eb6a2a68b76bbaadcb9b6e7074676c1746b99681d075bef009e8d57699baaa6342feec4e83726582d36',
    undefined,
    undefined,
    6649,
  ],
  [
    'v5',
    '2021-01-11T22_09_24.063739000Z.rcd',
    5,
    1,
    1610402964063739000n,
    1610402964063739000n,
    ZERO,
    '151bd3358db59fc7936eff15f1cb6734354e444cf85549a5643e55c9c929cb500be712abccd588cd8d20eb92ca55ff49',
    'e8adaac05a62a655a3c476b43f1383f6c5f5bba4bfa6c7b087dc4ee3a9089e232b5d5977bde7fba858fd56987792ece3',
    'ffe56840b99145f7b3370367fa5784cbe225278afd1c4c078dfe5b950fee22e2b9e9a04bde32023c3ba07c057cb54406',
    undefined,
    498,
  ],
  [
    'v5',
    '2021-01-11T22_09_34.097416003Z.rcd',
    5,
    1,
    1610402974097416003n,
    1610402974097416003n,
    '151bd3358db59fc7936eff15f1cb6734354e444cf85549a5643e55c9c929cb500be712abccd588cd8d20eb92ca55ff49',
    '514e361089074cb06f984e5a943a20fba2a0d601b766f8adb432d03214c48c3ff14898e6b78292520340f484e820ea84',
    '06fb76873dcdc3a4fdb67202e64ed735feaf6a6bb80d4f57fd3511df49ef61fc69d7a2414315028b7d77e168169fad22',
    '912869b5204ffbb7e437aaa6e7a09e9d53da98ead27942fdf7017e850827e857fadb1167e8877cfb8175883adcd74f7d',
    undefined,
    498,
  ],
  [
    'v6',
    '2022-07-13T08_46_08.041986003Z.rcd.gz',
    6,
    1,
    1657701968041986003n,
    1657701968041986003n,
    '13d2594b9e9dbb73dad0cad67a96ad7a0e249af8693aa894003876c9ddd5534b3143e4d785e04fc0c461945a03e85178',
    'a6c241fad2c636f68a6aa0da9293245a5ef0ebef345cd139858068ff7998716cefe0fd3afa0d21304725507061975279',
    '69a4354de5aeb12fbc989ae086fc291cfc1b61415391b4a46915b32aef722a511c4ceba60ecda72d527cc4866a4d235b',
    '361c0176ba28cc55525c50e7e75e58618b451f3dca402d9be19626159d939e7a569534658125732c1af31ff6f4a8e283',
    5n,
    509,
  ],
  [
    'v6',
    '2022-07-13T08_46_11.304284003Z.rcd.gz',
    6,
    2,
    1657701971304284003n,
    1657701971304284004n,
    'a6c241fad2c636f68a6aa0da9293245a5ef0ebef345cd139858068ff7998716cefe0fd3afa0d21304725507061975279',
    '3064b824b8b9f9ece011f88a26c030c9f6b822f30fbcabcc7240a220ea42bbdbf305db415a4e41307d0630d5cefe4550',
    'ed518c8d05f470d4540db35ea8665ab158f9aeb0bcaa3332d171c1efba119da52c1ee510df599269b022d963d4d1e474',
    'b13a2b638c5688dbec43b97dbee8ad637d2d42376fc313c628a990ac65aefdbd39832cf5ece42b925a520ed2d2bf8eac',
    6n,
    805,
  ],
  [
    'eth-0.26.0',
    '2022-04-28T15_28_34.014499000Z.rcd',
    5,
    14,
    1651159714014499000n,
    1651159715936579000n,
    undefined,
    'fa29a741eac9089d9f26172032ce6f61541fe77b8eba2363d08801396d020318ddf2f62d7d7243cea72303832495f6b1',
    'a941650e9d58fbb94290391079ed573b6a08a6028d930650b9f90847639362604622620ae49f85d4a9d0462ce06df60a',
    undefined,
    undefined,
    undefined,
  ],
  [
    'eth-0.26.0',
    '2022-04-28T15_28_40.210859000Z.rcd',
    5,
    12,
    1651159720210859000n,
    1651159721864153000n,
    undefined,
    'c0379240430763799d0b6f6f3ed8be483aa4de97f63ec674f05db900bd6037f529bf483e501b08da81bdd0e475beed48',
    'bd3c27afd8731d963766faea0afc3ff38cc80492322fb99b028344614f92eb14eb38ff6acab559430cc0b047b33b795f',
    undefined,
    undefined,
    undefined,
  ],
] as const;

function readRecord(folder: string, name: string) {
  return parseRecordFile(name, readFileSync(path.join(RECORDSTREAMS, folder, 'record0.0.3', name)));
}

type Fact = readonly [
  string,
  string,
  number,
  number,
  bigint,
  bigint,
  string | undefined,
  string,
  string,
  string | undefined,
  bigint | undefined,
  number | undefined,
];

describe('record stream files', () => {
  const cases = (FACTS as readonly Fact[]).map((fact) => ({ label: `${fact[0]}/${fact[1]}`, fact }));
  it.each(cases)('$label reproduces the MANIFEST facts', ({ fact }) => {
    const [folder, name, version, count, start, end, previous, hash, fileHash, metadataHash, block, size] = fact;
    const file = readRecord(folder, name);
    expect(file.version).toBe(version);
    expect(file.items).toHaveLength(count);
    if (previous) expect(toHex(file.previousHash)).toBe(previous);
    expect(toHex(file.hash)).toBe(hash);
    expect(toHex(file.fileHash)).toBe(fileHash);
    if (metadataHash) expect(toHex(file.metadataHash ?? new Uint8Array())).toBe(metadataHash);
    expect(file.blockNumber).toBe(block);
    if (size) expect(file.size).toBe(size);
    const items = file.items.map(decodeRecordItem);
    expect(items[0]?.consensusTimestamp).toBe(start);
    expect(items.at(-1)?.consensusTimestamp).toBe(end);
  });

  it('reads the v2 header HAPI version and the v5 and v6 semantic versions', () => {
    expect(readRecord('v2', '2019-08-30T18_10_00.419072Z.rcd').hapiVersion).toEqual({ major: 3, minor: 0, patch: 0 });
    expect(readRecord('v5', '2021-01-11T22_09_24.063739000Z.rcd').hapiVersion).toEqual({
      major: 0,
      minor: 9,
      patch: 0,
    });
    expect(readRecord('v6', '2022-07-13T08_46_08.041986003Z.rcd.gz').hapiVersion).toEqual({
      major: 0,
      minor: 28,
      patch: 0,
    });
  });

  it('decodes the transaction types of the v6 files', () => {
    const items = readRecord('v6', '2022-07-13T08_46_11.304284003Z.rcd.gz').items.map(decodeRecordItem);
    expect(items.map((i) => [i.type, i.bodyName, i.successful])).toEqual([
      [7, 'contractCall', true],
      [8, 'contractCreateInstance', true],
    ]);
    expect(items[1]?.parentConsensusTimestamp).toBe(1657701971304284003n);
  });

  it('rejects a file whose version it does not know', () => {
    expect(() => parseRecordFile('x.rcd', new Uint8Array([0, 0, 0, 9, 1, 2]))).toThrow(
      'unsupported record file version 9',
    );
  });

  it('rejects a v5 file cut short', () => {
    const bytes = readFileSync(path.join(RECORDSTREAMS, 'v5/record0.0.3/2021-01-11T22_09_24.063739000Z.rcd'));
    expect(() => parseRecordFile('x.rcd', bytes.subarray(0, bytes.length - 10))).toThrow(/truncated/);
  });
});

describe('signatures', () => {
  it.each(['v1', 'v2', 'v5', 'v6'])(
    'every node signature of %s verifies with its address book, and the files chain',
    (folder) => {
      const keys = nodeKeysOf(parseAddressBook(addressBook(BOOK_FOR[folder] as string)));
      const dir = path.join(RECORDSTREAMS, folder);
      const nodes = readdirSync(dir).filter((n) => n.startsWith('record'));
      const names = readdirSync(path.join(dir, 'record0.0.3')).filter((n) => /\.rcd(\.gz)?$/.test(n));
      let previous: Uint8Array | undefined;
      for (const name of names) {
        const signatures = nodes.map((node) => ({
          node: { accountName: node.slice('record'.length) },
          signature: parseSignatureFile(readFileSync(path.join(dir, node, `${name.replace(/\.gz$/, '')}_sig`))),
        }));
        const agreed = agreedHashes(name, signatures, keys);
        expect(agreed.signers).toEqual(['0.0.3', '0.0.4', '0.0.5', '0.0.6']);
        const file = readRecord(folder, name);
        checkDataFile(name, file, agreed, previous);
        previous = file.hash;
      }
    },
  );

  it('reads the standalone signature files of each layout', () => {
    const dir = path.join(STREAMS, 'data/signature');
    const v2 = parseSignatureFile(readFileSync(path.join(dir, 'v2/2019-08-30T18_10_00.419072Z.rcd_sig')));
    expect(v2.version).toBe(2);
    expect(toHex(v2.file.hash)).toBe(
      '591558e059bd1629ee386c4e35a6875b4c67a096718f5d225772a651042715189414df7db5588495efb2a85dc4a0ffda',
    );
    const v5 = parseSignatureFile(readFileSync(path.join(dir, 'v5/2021-01-11T22_16_11.299356001Z.rcd_sig')));
    expect([v5.version, v5.metadata?.hash.length]).toEqual([5, 48]);
    const v6 = parseSignatureFile(readFileSync(path.join(dir, 'v6/2022-06-16T10_18_37.496046001Z.rcd_sig')));
    expect([v6.version, v6.file.signature.length, v6.metadata?.signature.length]).toEqual([6, 384, 384]);
  });

  it('refuses consensus when fewer than a third of the nodes signed the same hash', () => {
    const keys = nodeKeysOf(parseAddressBook(addressBook('testnet')));
    const name = '2021-01-11T22_09_24.063739000Z.rcd';
    const one = [
      {
        node: { accountName: '0.0.3' },
        signature: parseSignatureFile(readFileSync(path.join(RECORDSTREAMS, 'v5/record0.0.3', `${name}_sig`))),
      },
    ];
    expect(() => agreedHashes(name, one, keys)).toThrow(
      `rejected ${name}: consensus not reached: 1 of 4 weight signed the same hash, 2 needed`,
    );
  });

  it('does not count a signature made with another key', () => {
    const keys = nodeKeysOf(parseAddressBook(addressBook('test-v1')));
    const name = '2021-01-11T22_09_24.063739000Z.rcd';
    const signatures = ['0.0.3', '0.0.4'].map((node) => ({
      node: { accountName: node },
      signature: parseSignatureFile(readFileSync(path.join(RECORDSTREAMS, `v5/record${node}`, `${name}_sig`))),
    }));
    expect(() => agreedHashes(name, signatures, keys)).toThrow(/no valid node signature/);
  });
});

describe('sidecars', () => {
  it('hashes the decompressed sidecar and joins its records by timestamp', () => {
    const file = parseSidecarFile(
      readFileSync(path.join(RECORDSTREAMS, 'v6/record0.0.3/sidecar/2022-07-13T08_46_11.304284003Z_01.rcd.gz')),
    );
    expect(toHex(file.hash)).toBe(
      '1ed54ea01aab5e726a087e94a0dd52c0f49b149d7a773ae71a3dc099f623bcf1840393db68f8db476ab11e6159f030f2',
    );
    expect(file.size).toBe(279);
    expect(file.records.map((r) => r.consensusTimestamp)).toEqual([1657701971304284003n, 1657701971304284004n]);
    const changes = file.records[0]?.stateChanges ?? [];
    expect(
      changes.map((c) => [
        c.contract_id?.contractNum,
        toHex(c.storage_changes[0]?.value_written?.value ?? new Uint8Array()),
      ]),
    ).toEqual([
      [1002n, '03eb'],
      [1003n, '08'],
    ]);
    expect(file.records[1]?.bytecode?.contract_id?.contractNum).toBe(1003n);
  });

  it('lists the sidecar in the v6 record file with its types', () => {
    const file = readRecord('v6', '2022-07-13T08_46_11.304284003Z.rcd.gz');
    expect(file.sidecars.map((s) => [s.id, s.types, toHex(s.hash)])).toEqual([
      [1, [1, 3], '1ed54ea01aab5e726a087e94a0dd52c0f49b149d7a773ae71a3dc099f623bcf1840393db68f8db476ab11e6159f030f2'],
    ]);
  });
});

describe('address books', () => {
  it('derives node ids from the account of books that leave them 0', () => {
    const nodes = parseAddressBook(addressBook('test-v1'));
    expect(nodes.map((n) => [n.nodeId, n.nodeAccountId])).toEqual([
      [0n, 3n],
      [1n, 4n],
      [2n, 5n],
      [3n, 6n],
    ]);
  });
});
