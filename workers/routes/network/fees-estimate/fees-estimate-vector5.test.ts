import { describe, expect, it } from 'vitest';
import {
  type BodyInput,
  ed25519Key,
  genesisScheduleJson,
  registerFeeSuite,
  transactionBytes,
} from '../../../../test/harness/factories-fees.ts';

const genesis = genesisScheduleJson();
const { post } = registerFeeSuite(genesis);

const key = ed25519Key;
const fixedFee = { fixedFee: { amount: 100_000_000 }, feeCollectorAccountId: { accountNum: 98 } };

/**
 * The design note's vector 5: the reference's totals for its sample bodies, reproduced with bodies of the same
 * shape (one signature, the same number of keys, hooks, custom fees and NFTs).
 */
describe('POST /api/v1/network/fees with the genesis schedule in 0.0.113', () => {
  it.each([
    [
      'ConsensusCreateTopic',
      20300000000,
      { consensusCreateTopic: { adminKey: key(1), submitKey: key(2), feeScheduleKey: key(3), customFees: [fixedFee] } },
    ],
    ['ConsensusDeleteTopic', 50000000, { consensusDeleteTopic: { topicID: { topicNum: 1234 } } }],
    [
      'ConsensusUpdateTopic',
      402200000,
      {
        consensusUpdateTopic: {
          topicID: { topicNum: 1234 },
          adminKey: key(1),
          submitKey: key(2),
          feeScheduleKey: key(3),
          feeExemptKeyList: { keys: [key(4), key(5)] },
        },
      },
    ],
    ['ContractCall', 0, { contractCall: { contractID: { contractNum: 1010 }, gas: 30_000 } }],
    [
      'ContractCreate',
      20000000000,
      {
        contractCreateInstance: {
          initcode: new Uint8Array(64),
          adminKey: key(1),
          gas: 100_000,
          hookCreationDetails: [{ hookId: 1 }],
        },
      },
    ],
    ['ContractDelete', 70000000, { contractDeleteInstance: { contractID: { contractNum: 1010 } } }],
    [
      'ContractUpdate',
      20260000000,
      {
        contractUpdateInstance: {
          contractID: { contractNum: 1010 },
          adminKey: key(1),
          hookCreationDetails: [{ hookId: 2 }],
          hookIdsToDelete: [1],
        },
      },
    ],
    ['CryptoCreate', 10500000000, { cryptoCreateAccount: { key: key(1), hookCreationDetails: [{ hookId: 1 }] } }],
    ['CryptoDelete', 50000000, { cryptoDelete: { deleteAccountID: { accountNum: 1001 } } }],
    [
      'CryptoTransfer',
      1000000,
      {
        cryptoTransfer: {
          transfers: {
            accountAmounts: [
              { accountID: { accountNum: 1001 }, amount: -1 },
              { accountID: { accountNum: 1002 }, amount: 1 },
            ],
          },
        },
      },
    ],
    [
      'CryptoUpdate',
      20002200000,
      {
        cryptoUpdateAccount: {
          accountIDToUpdate: { accountNum: 1001 },
          key: key(1),
          hookCreationDetails: [{ hookId: 3 }],
          hookIdsToDelete: [1],
        },
      },
    ],
    ['EthereumTransaction', 1000000, { ethereumTransaction: { ethereumData: new Uint8Array(120) } }],
    ['FileAppend', 500000000, { fileAppend: { fileID: { fileNum: 1500 }, contents: new Uint8Array(100) } }],
    ['FileCreate', 500000000, { fileCreate: { keys: { keys: [key(1)] }, contents: new Uint8Array(100) } }],
    [
      'FileUpdate',
      500000000,
      { fileUpdate: { fileID: { fileNum: 1500 }, keys: { keys: [key(1)] }, contents: new Uint8Array(100) } },
    ],
    ['FileDelete', 70000000, { fileDelete: { fileID: { fileNum: 1500 } } }],
    [
      'ScheduleCreate',
      100000000,
      { scheduleCreate: { scheduledTransactionBody: { cryptoDelete: {} }, adminKey: key(1) } },
    ],
    ['ScheduleDelete', 10000000, { scheduleDelete: { scheduleID: { scheduleNum: 1600 } } }],
    ['ScheduleSign', 10000000, { scheduleSign: { scheduleID: { scheduleNum: 1600 } } }],
    ['TokenAssociate', 500000000, { tokenAssociate: { account: { accountNum: 1001 }, tokens: [{ tokenNum: 5001 }] } }],
    [
      'TokenDissociate',
      500000000,
      { tokenDissociate: { account: { accountNum: 1001 }, tokens: [{ tokenNum: 5001 }] } },
    ],
    ['TokenBurn', 10000000, { tokenBurn: { token: { tokenNum: 5001 }, amount: 1 } }],
    [
      'TokenCreate',
      20700000000,
      {
        tokenCreation: {
          name: 'T',
          symbol: 'T',
          adminKey: key(1),
          kycKey: key(2),
          freezeKey: key(3),
          wipeKey: key(4),
          supplyKey: key(5),
          feeScheduleKey: key(6),
          pauseKey: key(7),
          metadataKey: key(8),
          customFees: [fixedFee],
        },
      },
    ],
    ['TokenDelete', 10000000, { tokenDeletion: { token: { tokenNum: 5001 } } }],
    ['TokenFreeze', 10000000, { tokenFreeze: { token: { tokenNum: 5001 } } }],
    ['TokenGrantKyc', 10000000, { tokenGrantKyc: { token: { tokenNum: 5001 } } }],
    ['TokenPause', 10000000, { tokenPause: { token: { tokenNum: 5001 } } }],
    ['TokenRevokeKyc', 10000000, { tokenRevokeKyc: { token: { tokenNum: 5001 } } }],
    ['TokenUnfreeze', 10000000, { tokenUnfreeze: { token: { tokenNum: 5001 } } }],
    ['TokenUnpause', 10000000, { tokenUnpause: { token: { tokenNum: 5001 } } }],
    ['TokenWipe', 10000000, { tokenWipe: { token: { tokenNum: 5001 }, amount: 1 } }],
    [
      'TokenMint',
      400000000,
      { tokenMint: { token: { tokenNum: 5002 }, metadata: [new Uint8Array(8), new Uint8Array(8)] } },
    ],
    [
      'TokenUpdate',
      710000000,
      {
        tokenUpdate: {
          token: { tokenNum: 5001 },
          adminKey: key(1),
          kycKey: key(2),
          freezeKey: key(3),
          wipeKey: key(4),
          supplyKey: key(5),
          feeScheduleKey: key(6),
          pauseKey: key(7),
          metadataKey: key(8),
        },
      },
    ],
    ['UtilPrng', 10000000, { utilPrng: {} }],
  ] as const)('vector 5: %s totals %d in both modes', async (_name, total, body) => {
    const bytes = transactionBytes(body as BodyInput);
    expect((await post(bytes)).body.total).toBe(total);
    expect((await post(bytes, { query: '?mode=STATE' })).body.total).toBe(total);
  });
});
