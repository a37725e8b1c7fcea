import { type BodyInput, ecdsaKey, ed25519Key, type FeeCase } from './factories-fees.ts';

/** Bodies as wallets build them for the Crypto, Consensus and File services' transaction types. */

export const account = (num: number) => ({ shardNum: 0, realmNum: 0, accountNum: num });
export const token = (num: number) => ({ shardNum: 0, realmNum: 0, tokenNum: num });
const threshold = (...keys: BodyInput[]): BodyInput => ({ thresholdKey: { threshold: 1, keys: { keys } } });
export const keyList = (...keys: BodyInput[]): BodyInput => ({ keyList: { keys } });
export const fixedFee = { fixedFee: { amount: 100_000_000 }, feeCollectorAccountId: account(98) };
const hook = (id: number) => ({ extensionPoint: 0, hookId: id, adminKey: ed25519Key(40 + id) });

export const CRYPTO_CONSENSUS_FILE_CASES: FeeCase[] = [
  {
    functionality: 'CryptoCreate',
    body: {
      cryptoCreateAccount: {
        key: ed25519Key(1),
        initialBalance: 500_000_000,
        autoRenewPeriod: { seconds: 7_776_000 },
        memo: 'new account',
      },
    },
    extras: { KEYS: 1 },
  },
  {
    functionality: 'CryptoCreate',
    body: {
      cryptoCreateAccount: {
        key: threshold(ed25519Key(1), ecdsaKey(2), ed25519Key(3)),
        hookCreationDetails: [hook(1), hook(2)],
      },
    },
    extras: { KEYS: 3, HOOK_UPDATES: 2 },
  },
  {
    functionality: 'CryptoUpdate',
    body: {
      cryptoUpdateAccount: {
        accountIDToUpdate: account(1001),
        key: keyList(ed25519Key(4), ed25519Key(5)),
        hookIdsToDelete: [7, 8, 9],
      },
    },
    signatures: 2,
    extras: { KEYS: 2, HOOK_UPDATES: 3 },
  },
  {
    functionality: 'CryptoDelete',
    body: { cryptoDelete: { deleteAccountID: account(1001), transferAccountID: account(1002) } },
  },
  {
    functionality: 'CryptoTransfer',
    body: {
      cryptoTransfer: {
        transfers: {
          accountAmounts: [
            { accountID: account(1001), amount: -300 },
            { accountID: account(1002), amount: 100 },
            { accountID: account(1003), amount: 200 },
          ],
        },
      },
    },
    extras: { ACCOUNTS: 3 },
  },
  {
    functionality: 'CryptoTransfer',
    body: {
      cryptoTransfer: {
        tokenTransfers: [
          {
            token: token(5001),
            transfers: [
              { accountID: account(1001), amount: -10 },
              { accountID: account(1002), amount: 10 },
            ],
          },
          {
            token: token(5002),
            nftTransfers: [{ senderAccountID: account(1001), receiverAccountID: account(1004), serialNumber: 3 }],
          },
        ],
      },
    },
    signatures: 2,
    // INTRINSIC: each token list is priced on its own count of transfers
    extras: { ACCOUNTS: 3, TOKEN_TYPES: 2 },
  },
  {
    functionality: 'CryptoApproveAllowance',
    body: {
      cryptoApproveAllowance: {
        cryptoAllowances: [{ owner: account(1001), spender: account(1002), amount: 1000 }],
        tokenAllowances: [{ tokenId: token(5001), owner: account(1001), spender: account(1002), amount: 5 }],
      },
    },
    extras: { ALLOWANCES: 2 },
  },
  {
    functionality: 'CryptoDeleteAllowance',
    body: {
      cryptoDeleteAllowance: {
        nftAllowances: [
          { tokenId: token(5002), owner: account(1001), serialNumbers: [1, 2] },
          { tokenId: token(5003), owner: account(1001), serialNumbers: [4] },
        ],
      },
    },
    extras: { ALLOWANCES: 2 },
  },
  {
    functionality: 'ConsensusCreateTopic',
    body: {
      consensusCreateTopic: {
        memo: 'events',
        adminKey: ed25519Key(6),
        submitKey: ed25519Key(7),
        feeScheduleKey: ed25519Key(8),
        customFees: [fixedFee],
        autoRenewAccount: account(1001),
        autoRenewPeriod: { seconds: 7_776_000 },
      },
    },
    extras: { KEYS: 3, CONSENSUS_CREATE_TOPIC_WITH_CUSTOM_FEE: 1 },
  },
  {
    functionality: 'ConsensusUpdateTopic',
    body: {
      consensusUpdateTopic: {
        topicID: { topicNum: 1234 },
        adminKey: ed25519Key(6),
        submitKey: ed25519Key(7),
        feeScheduleKey: ed25519Key(8),
        feeExemptKeyList: { keys: [ed25519Key(9), ecdsaKey(10)] },
      },
    },
    signatures: 2,
    extras: { KEYS: 5 },
  },
  {
    functionality: 'ConsensusSubmitMessage',
    body: {
      consensusSubmitMessage: {
        topicID: { topicNum: 1234 },
        message: new TextEncoder().encode('{"event":"transfer","amount":1}'.repeat(8)),
      },
    },
    extras: { CONSENSUS_SUBMIT_MESSAGE_WITHOUT_CUSTOM_FEE_BYTES: 248 },
  },
  { functionality: 'ConsensusDeleteTopic', body: { consensusDeleteTopic: { topicID: { topicNum: 1234 } } } },
  {
    functionality: 'FileCreate',
    body: {
      fileCreate: {
        keys: { keys: [ed25519Key(11), ed25519Key(12)] },
        contents: new Uint8Array(900).fill(0x60),
        expirationTime: { seconds: 1_770_000_000 },
      },
    },
    extras: { KEYS: 2, STATE_BYTES: 900 },
  },
  {
    functionality: 'FileUpdate',
    body: {
      fileUpdate: {
        fileID: { fileNum: 1500 },
        keys: { keys: [ed25519Key(11)] },
        contents: new Uint8Array(1100).fill(0x61),
      },
    },
    extras: { KEYS: 1, STATE_BYTES: 1100 },
  },
  {
    functionality: 'FileAppend',
    body: { fileAppend: { fileID: { fileNum: 1500 }, contents: new Uint8Array(1024).fill(0x62) } },
    extras: { STATE_BYTES: 1024 },
  },
  { functionality: 'FileDelete', body: { fileDelete: { fileID: { fileNum: 1500 } } } },
  {
    functionality: 'SystemDelete',
    body: { systemDelete: { fileID: { fileNum: 1500 }, expirationTime: { seconds: 1_770_000_000 } } },
  },
  { functionality: 'SystemUndelete', body: { systemUndelete: { fileID: { fileNum: 1500 } } } },
];
