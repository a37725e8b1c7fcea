import { describe, expect, it } from 'vitest';
import {
  type BodyInput,
  ecdsaKey,
  ed25519Key,
  genesisScheduleJson,
  postFees,
  simpleFeeScheduleBytes,
  transactionBytes,
} from '../../../../test/harness/factories-fees.ts';
import { insertFileData } from '../../../../test/harness/factories-network.ts';
import { registerWorkerSuite } from '../../../../test/harness/worker-suite.ts';

/**
 * Every transaction type the genesis schedule prices, with a body as a wallet builds it (payer, node, valid start,
 * keys, one to three ED25519 signatures). The expected fee is worked out here from the schedule's own numbers and
 * the extras the body holds; the genesis schedule is loaded into 0.0.113, as the reference's tests load it.
 */

const genesis = genesisScheduleJson();
const entries = new Map(genesis.services.flatMap((service) => service.schedule.map((entry) => [entry.name, entry])));
const price = (name: string) => BigInt(genesis.extras.find((extra) => extra.name === name)?.fee ?? Number.NaN);

interface Case {
  /** The schedule entry (HederaFunctionality name) the body is priced by. */
  functionality: string;
  body: BodyInput;
  signatures?: number;
  /** Units of each service extra the body holds, in the order the calculator charges them. */
  extras?: Record<string, number>;
  /** The entry whose base fee and extras apply, when not the functionality's own. */
  pricedAs?: string;
}

/** node + network + service from the genesis schedule; the node pays for signatures and bytes beyond its quota. */
function expectedFee(test: Case, bytes: number) {
  const entry = entries.get(test.pricedAs ?? test.functionality);
  if (!entry) throw new Error(`no genesis entry for ${test.functionality}`);
  const exempt = entries.get(test.functionality)?.nodeNetworkFeeExempt === true;
  const nodeUse: Record<string, number> = { SIGNATURES: test.signatures ?? 1, PROCESSING_BYTES: bytes };
  let node = exempt ? 0n : BigInt(genesis.node.baseFee);
  if (!exempt) {
    for (const extra of genesis.node.extras) {
      node += price(extra.name) * BigInt(Math.max(0, (nodeUse[extra.name] ?? 0) - extra.includedCount));
    }
  }
  const charged = Object.entries(test.extras ?? {}).flatMap(([name, count]) => {
    const included = entry.extras.find((extra) => extra.name === name)?.includedCount;
    if (included === undefined) throw new Error(`${entry.name} has no extra ${name}`);
    return count > included ? [{ name, count, charged: count - included }] : [];
  });
  const service = charged.reduce(
    (sum, extra) => sum + price(extra.name) * BigInt(extra.charged),
    BigInt(entry.baseFee),
  );
  const multiplier = exempt ? 0n : BigInt(genesis.network.multiplier);
  return { total: node * (1n + multiplier) + service, serviceBase: entry.baseFee, charged };
}

const account = (num: number) => ({ shardNum: 0, realmNum: 0, accountNum: num });
const token = (num: number) => ({ shardNum: 0, realmNum: 0, tokenNum: num });
const threshold = (...keys: BodyInput[]): BodyInput => ({ thresholdKey: { threshold: 1, keys: { keys } } });
const keyList = (...keys: BodyInput[]): BodyInput => ({ keyList: { keys } });
const fixedFee = { fixedFee: { amount: 100_000_000 }, feeCollectorAccountId: account(98) };
const hook = (id: number) => ({ extensionPoint: 0, hookId: id, adminKey: ed25519Key(40 + id) });

const CASES: Case[] = [
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

const { worker } = registerWorkerSuite({
  seed: (db) =>
    insertFileData(db.sql, {
      consensus_timestamp: 1_700_000_000_000_000_000n,
      entity_id: 113n,
      file_data: simpleFeeScheduleBytes(genesis),
    }),
});

describe('POST /api/v1/network/fees prices every transaction type of the genesis schedule', () => {
  it.each(
    CASES.map((test) => [test.functionality, Object.keys(test.extras ?? {}).join(' ') || 'base fee', test] as const),
  )('%s (%s) as its schedule entry says', async (_name, _extras, test) => {
    const bytes = transactionBytes(test.body, { signatures: test.signatures ?? 1 });
    const res = await postFees(worker.baseUrl, bytes);
    expect(res.status).toBe(200);
    const expected = expectedFee(test, bytes.length);
    const isSystem = test.functionality === 'SystemDelete' || test.functionality === 'SystemUndelete';
    if (isSystem) {
      // free: only the privileged accounts that may send them can
      expect(res.body.total).toBe(0);
      return;
    }
    expect(res.body.service.base).toBe(expected.serviceBase);
    expect(res.body.service.extras.map((extra: { name: string; count: number }) => [extra.name, extra.count])).toEqual(
      expected.charged.map((extra) => [extra.name, extra.count]),
    );
    expect(BigInt(res.body.total)).toBe(expected.total);
  });

  it('covers every transaction type the genesis schedule has an entry for', () => {
    const queries = new Set([
      'ContractCallLocal',
      'ContractGetBytecode',
      'ContractGetInfo',
      'GetVersionInfo',
      'GetByKey',
    ]);
    const transactions = [...entries.keys()].filter((name) => !/Get|Info$/.test(name) && !queries.has(name));
    expect(new Set(CASES.map((test) => test.functionality))).toEqual(new Set(transactions));
  });
});
