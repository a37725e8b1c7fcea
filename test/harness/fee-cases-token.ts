import { ed25519Key, type FeeCase } from './factories-fees.ts';
import { account, fixedFee, keyList, token } from './fee-cases-crypto.ts';

/** Bodies as wallets build them for the Token, Schedule, Util, Contract and AddressBook services' transaction types. */

export const TOKEN_CONTRACT_NODE_CASES: FeeCase[] = [
  {
    functionality: 'TokenCreate',
    body: {
      tokenCreation: {
        name: 'Edge Token',
        symbol: 'EDGE',
        decimals: 8,
        initialSupply: 1_000_000,
        treasury: account(1001),
        adminKey: ed25519Key(20),
        supplyKey: ed25519Key(21),
        pauseKey: ed25519Key(22),
        customFees: [fixedFee],
        autoRenewAccount: account(1001),
        autoRenewPeriod: { seconds: 7_776_000 },
      },
    },
    extras: { KEYS: 3, TOKEN_CREATE_WITH_CUSTOM_FEE: 1 },
  },
  {
    functionality: 'TokenUpdate',
    body: {
      tokenUpdate: {
        token: token(5001),
        name: 'Edge Token 2',
        adminKey: ed25519Key(23),
        kycKey: ed25519Key(24),
        wipeKey: ed25519Key(25),
      },
    },
    signatures: 2,
    extras: { KEYS: 3 },
  },
  {
    functionality: 'TokenMint',
    body: {
      tokenMint: { token: token(5002), metadata: [1, 2, 3].map((n) => new TextEncoder().encode(`ipfs://bafy${n}`)) },
    },
    extras: { TOKEN_MINT_NFT_BASE: 1, TOKEN_MINT_NFT: 3 },
  },
  { functionality: 'TokenMint', body: { tokenMint: { token: token(5001), amount: 1_000 } } },
  { functionality: 'TokenBurn', body: { tokenBurn: { token: token(5001), amount: 10 } } },
  { functionality: 'TokenDelete', body: { tokenDeletion: { token: token(5001) } } },
  { functionality: 'TokenFreezeAccount', body: { tokenFreeze: { token: token(5001), account: account(1002) } } },
  { functionality: 'TokenUnfreezeAccount', body: { tokenUnfreeze: { token: token(5001), account: account(1002) } } },
  { functionality: 'TokenGrantKycToAccount', body: { tokenGrantKyc: { token: token(5001), account: account(1002) } } },
  {
    functionality: 'TokenRevokeKycFromAccount',
    body: { tokenRevokeKyc: { token: token(5001), account: account(1002) } },
  },
  { functionality: 'TokenPause', body: { tokenPause: { token: token(5001) } } },
  { functionality: 'TokenUnpause', body: { tokenUnpause: { token: token(5001) } } },
  { functionality: 'TokenAccountWipe', body: { tokenWipe: { token: token(5001), account: account(1002), amount: 5 } } },
  {
    functionality: 'TokenAssociateToAccount',
    body: { tokenAssociate: { account: account(1002), tokens: [token(5001), token(5002), token(5003)] } },
    extras: { TOKEN_ASSOCIATE: 3 },
  },
  {
    functionality: 'TokenDissociateFromAccount',
    body: { tokenDissociate: { account: account(1002), tokens: [token(5001)] } },
  },
  {
    functionality: 'TokenFeeScheduleUpdate',
    body: { tokenFeeScheduleUpdate: { tokenId: token(5001), customFees: [fixedFee] } },
  },
  {
    functionality: 'TokenUpdateNfts',
    body: {
      tokenUpdateNfts: { token: token(5002), serialNumbers: [1, 2, 3, 4], metadata: { value: new Uint8Array(16) } },
    },
    extras: { NFT_UPDATE: 4 },
  },
  {
    functionality: 'TokenReject',
    body: { tokenReject: { owner: account(1002), rejections: [{ fungibleToken: token(5001) }] } },
  },
  {
    functionality: 'TokenAirdrop',
    pricedAs: 'CryptoTransfer',
    body: {
      tokenAirdrop: {
        tokenTransfers: [
          {
            token: token(5001),
            transfers: [
              { accountID: account(1001), amount: -20 },
              { accountID: account(1005), amount: 10 },
              { accountID: account(1006), amount: 10 },
            ],
          },
        ],
      },
    },
    extras: { ACCOUNTS: 3, TOKEN_TYPES: 3 },
  },
  {
    functionality: 'TokenClaimAirdrop',
    body: {
      tokenClaimAirdrop: {
        pendingAirdrops: [{ senderId: account(1001), receiverId: account(1005), fungibleTokenType: token(5001) }],
      },
    },
  },
  {
    functionality: 'TokenCancelAirdrop',
    body: {
      tokenCancelAirdrop: {
        pendingAirdrops: [{ senderId: account(1001), receiverId: account(1005), fungibleTokenType: token(5001) }],
      },
    },
  },
  {
    functionality: 'ScheduleCreate',
    body: {
      scheduleCreate: {
        scheduledTransactionBody: {
          cryptoTransfer: {
            transfers: {
              accountAmounts: [
                { accountID: account(1001), amount: -1 },
                { accountID: account(1002), amount: 1 },
              ],
            },
          },
        },
        adminKey: ed25519Key(30),
        payerAccountID: account(1001),
      },
    },
    extras: { KEYS: 1 },
  },
  {
    functionality: 'ScheduleCreate',
    body: {
      scheduleCreate: {
        scheduledTransactionBody: { contractCall: { contractID: { contractNum: 1010 }, gas: 50_000 } },
        adminKey: keyList(ed25519Key(30), ed25519Key(31)),
      },
    },
    extras: { KEYS: 2, SCHEDULE_CREATE_CONTRACT_CALL_BASE: 1 },
  },
  { functionality: 'ScheduleSign', body: { scheduleSign: { scheduleID: { scheduleNum: 1600 } } }, signatures: 3 },
  { functionality: 'ScheduleDelete', body: { scheduleDelete: { scheduleID: { scheduleNum: 1600 } } } },
  { functionality: 'UtilPrng', body: { utilPrng: { range: 100 } } },
  {
    functionality: 'AtomicBatch',
    body: { atomicBatch: { transactions: [new Uint8Array(120).fill(1), new Uint8Array(120).fill(2)] } },
    signatures: 2,
  },
  {
    functionality: 'ContractCall',
    body: {
      contractCall: {
        contractID: { contractNum: 1010 },
        gas: 200_000,
        amount: 0,
        functionParameters: new Uint8Array(100),
      },
    },
  },
  {
    functionality: 'ContractCreate',
    body: {
      contractCreateInstance: {
        initcode: new Uint8Array(400).fill(0x60),
        adminKey: ed25519Key(32),
        gas: 300_000,
        autoRenewPeriod: { seconds: 7_776_000 },
      },
    },
    extras: { KEYS: 1 },
  },
  {
    functionality: 'ContractUpdate',
    body: {
      contractUpdateInstance: {
        contractID: { contractNum: 1010 },
        adminKey: keyList(ed25519Key(33), ed25519Key(34)),
        memo: 'v2',
      },
    },
    extras: { KEYS: 2 },
  },
  {
    functionality: 'ContractDelete',
    body: { contractDeleteInstance: { contractID: { contractNum: 1010 }, transferAccountID: account(1001) } },
  },
  {
    functionality: 'EthereumTransaction',
    body: { ethereumTransaction: { ethereumData: new Uint8Array(180).fill(0xf8) } },
  },
  {
    functionality: 'HookStore',
    body: {
      hookStore: {
        hookId: { entityId: { accountId: account(1001) }, hookId: 1 },
        storageUpdates: [
          { storageSlot: { key: new Uint8Array([1]), value: new Uint8Array([2]) } },
          {
            mappingEntries: {
              mappingSlot: new Uint8Array([3]),
              entries: [
                { key: new Uint8Array([4]), value: new Uint8Array([5]) },
                { key: new Uint8Array([6]), value: new Uint8Array([7]) },
              ],
            },
          },
        ],
      },
    },
    extras: { HOOK_SLOT_UPDATE: 3 },
  },
  {
    functionality: 'NodeCreate',
    body: {
      nodeCreate: {
        accountId: account(1001),
        description: 'edge node',
        gossipEndpoint: [{ domainName: 'gossip.example.com', port: 50111 }],
        serviceEndpoint: [{ domainName: 'grpc.example.com', port: 50211 }],
        gossipCaCertificate: new Uint8Array(300),
        adminKey: ed25519Key(35),
      },
    },
    signatures: 2,
  },
  {
    functionality: 'NodeUpdate',
    body: { nodeUpdate: { nodeId: 4, description: { value: 'edge node 2' } } },
    signatures: 2,
  },
  { functionality: 'NodeDelete', body: { nodeDelete: { nodeId: 4 } }, signatures: 2 },
  {
    functionality: 'RegisteredNodeCreate',
    body: {
      registeredNodeCreate: {
        adminKey: ed25519Key(36),
        description: 'mirror',
        serviceEndpoint: [{ domainName: 'mirror.example.com', port: 443, requiresTls: true, mirrorNode: {} }],
      },
    },
  },
  {
    functionality: 'RegisteredNodeUpdate',
    body: { registeredNodeUpdate: { registeredNodeId: 1, description: { value: 'mirror 2' } } },
  },
  { functionality: 'RegisteredNodeDelete', body: { registeredNodeDelete: { registeredNodeId: 1 } } },
];
