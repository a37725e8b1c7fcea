/**
 * The info a node answers about an entity, built from the ledger model in the HAPI shapes (CryptoGetInfo,
 * TokenGetInfo, TokenGetNftInfo, ConsensusGetTopicInfo, FileGetInfo, ContractGetInfo, ScheduleGetInfo). Every
 * lookup fails with the node's code for a missing entity.
 */
import {
  accountPb,
  contractPb,
  filePb,
  i64,
  longZeroAddress,
  schedulePb,
  timestampPb,
  tokenPb,
} from '../../ledger/ids.ts';
import type { Ledger, LedgerKey } from '../../ledger/ledger.ts';
import { keyPb } from '../../network/keys.ts';
import { accountNumOf, contractNumOf, numOf } from '../entity-ids.ts';
import { customFeePb, fixedCustomFeePb } from '../handlers/custom-fee-schedule.ts';
import { ensure, type Pb } from '../handling.ts';

/** The local network's ledger id, as the Hiero local node reports it. */
export const LEDGER_ID = Uint8Array.of(3);

const key = (value: LedgerKey | undefined) => (value ? { key: keyPb(value) } : {});
const keyField = (field: string, value: LedgerKey | undefined) => (value ? { [field]: keyPb(value) } : {});
const seconds = (value: bigint | undefined) => (value !== undefined ? { seconds: i64(value) } : undefined);
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const wallClockNs = () => BigInt(Date.now()) * 1_000_000n;

export function accountInfo(ledger: Ledger, id: unknown): Pb {
  const num = accountNumOf(ledger, id);
  const account = num > 0n ? ledger.accounts.get(num) : undefined;
  ensure(account, 'INVALID_ACCOUNT_ID');
  ensure(!account.deleted, 'ACCOUNT_DELETED');
  let ownedNfts = 0n;
  for (const token of account.tokens) {
    if (ledger.tokens.get(token)?.type === 'NON_FUNGIBLE_UNIQUE') ownedNfts += ledger.tokenBalance(num, token);
  }
  return {
    accountID: accountPb(num),
    contractAccountID: hex(account.evmAddress ?? longZeroAddress(num)),
    deleted: account.deleted,
    ...key(account.key),
    balance: i64(account.balance),
    receiverSigRequired: Boolean(account.receiverSigRequired),
    // Accounts the network made itself renew without end: one period from now, as far as a client can tell.
    expirationTime: timestampPb(
      account.expirationNs ?? wallClockNs() + (account.autoRenewSeconds ?? 7_776_000n) * 1_000_000_000n,
    ),
    autoRenewPeriod: seconds(account.autoRenewSeconds ?? 7_776_000n),
    memo: account.memo,
    ownedNfts: i64(ownedNfts),
    max_automatic_token_associations: account.maxAutoAssociations,
    // `alias` carries a key alias (a serialized Key); an EVM address alias shows as `contractAccountID` alone.
    ...(account.keyAlias ? { alias: account.keyAlias } : {}),
    ledger_id: LEDGER_ID,
    ethereum_nonce: i64(account.ethereumNonce),
    tokenRelationships: tokenRelationships(ledger, num),
    staking_info: {
      decline_reward: Boolean(account.declineReward),
      ...(account.stakedNodeId !== undefined ? { staked_node_id: account.stakedNodeId } : {}),
    },
  };
}

/** The account's tokens as CryptoGetInfo lists them (deprecated in HAPI, still read by the SDKs). */
function tokenRelationships(ledger: Ledger, num: bigint): Pb[] {
  const account = ledger.account(num);
  return [...account.tokens].flatMap((tokenNum) => {
    const token = ledger.tokens.get(tokenNum);
    if (!token) return [];
    return [
      {
        tokenId: tokenPb(tokenNum),
        symbol: token.symbol,
        balance: i64(ledger.tokenBalance(num, tokenNum)),
        kycStatus: token.settings?.kycKey ? (token.kycGranted?.has(num) ? 1 : 2) : 0,
        freezeStatus: token.settings?.freezeKey ? (token.frozen?.has(num) ? 1 : 2) : 0,
        decimals: token.decimals,
      },
    ];
  });
}

export function tokenInfo(ledger: Ledger, id: unknown): Pb {
  const token = ledger.tokens.get(numOf(id, 'tokenNum'));
  ensure(token, 'INVALID_TOKEN_ID');
  const settings = token.settings ?? {};
  const treasuryKey = ledger.accounts.get(token.treasury)?.key;
  // Tokens of the generated load carry the treasury's key as admin and supply key.
  const adminKey = token.settings ? settings.adminKey : treasuryKey;
  const supplyKey = token.settings ? settings.supplyKey : treasuryKey;
  return {
    tokenId: tokenPb(token.num),
    name: token.name,
    symbol: token.symbol,
    decimals: token.decimals,
    totalSupply: i64(token.totalSupply),
    treasury: accountPb(token.treasury),
    ...keyField('adminKey', adminKey),
    ...keyField('kycKey', settings.kycKey),
    ...keyField('freezeKey', settings.freezeKey),
    ...keyField('wipeKey', settings.wipeKey),
    ...keyField('supplyKey', supplyKey),
    defaultFreezeStatus: settings.freezeKey ? (settings.freezeDefault ? 1 : 2) : 0,
    defaultKycStatus: settings.kycKey ? 2 : 0,
    deleted: Boolean(token.deleted),
    ...(settings.autoRenewAccount !== undefined ? { autoRenewAccount: accountPb(settings.autoRenewAccount) } : {}),
    ...(settings.autoRenewSeconds !== undefined || !token.settings
      ? { autoRenewPeriod: seconds(settings.autoRenewSeconds ?? 7_776_000n) }
      : {}),
    ...(settings.expirationNs !== undefined ? { expiry: timestampPb(settings.expirationNs) } : {}),
    memo: settings.memo ?? '',
    tokenType: token.type === 'NON_FUNGIBLE_UNIQUE' ? 1 : 0,
    supplyType: settings.maxSupply ? 1 : 0,
    maxSupply: i64(settings.maxSupply ?? 0n),
    ...keyField('fee_schedule_key', settings.feeScheduleKey),
    custom_fees: (settings.customFees ?? []).map(customFeePb),
    ...keyField('pause_key', settings.pauseKey),
    pause_status: settings.pauseKey ? (token.paused ? 1 : 2) : 0,
    ledger_id: LEDGER_ID,
    ...(settings.metadata ? { metadata: settings.metadata } : {}),
    ...keyField('metadata_key', settings.metadataKey),
  };
}

export function nftInfo(ledger: Ledger, nftId: unknown): Pb {
  const pb = (nftId ?? {}) as Pb;
  const token = numOf(pb.token_ID, 'tokenNum');
  ensure(ledger.tokens.has(token), 'INVALID_TOKEN_ID');
  const serial = BigInt(String(pb.serial_number ?? 0));
  ensure(serial > 0n, 'INVALID_TOKEN_NFT_SERIAL_NUMBER');
  const nft = ledger.nft(token, serial);
  ensure(nft && !nft.deleted, 'INVALID_NFT_ID');
  return {
    nftID: { token_ID: tokenPb(token), serial_number: i64(serial) },
    accountID: accountPb(nft.owner),
    creationTime: timestampPb(nft.mintedNs ?? 0n),
    metadata: nft.metadata,
    ledger_id: LEDGER_ID,
    ...(nft.spender !== 0n ? { spender_id: accountPb(nft.spender) } : {}),
  };
}

export function topicInfo(ledger: Ledger, id: unknown): Pb {
  const topic = ledger.topics.get(numOf(id, 'topicNum'));
  ensure(topic && !topic.settings?.deleted, 'INVALID_TOPIC_ID');
  const settings = topic.settings;
  return {
    memo: settings?.memo ?? '',
    runningHash: topic.runningHash,
    sequenceNumber: i64(topic.sequenceNumber),
    ...(settings?.expirationNs !== undefined ? { expirationTime: timestampPb(settings.expirationNs) } : {}),
    ...keyField('adminKey', settings?.adminKey),
    ...keyField('submitKey', settings?.submitKey),
    autoRenewPeriod: seconds(settings?.autoRenewSeconds ?? 7_776_000n),
    ...(settings?.autoRenewAccount !== undefined ? { autoRenewAccount: accountPb(settings.autoRenewAccount) } : {}),
    ledger_id: LEDGER_ID,
    ...keyField('fee_schedule_key', settings?.feeScheduleKey),
    fee_exempt_key_list: (settings?.feeExemptKeys ?? []).map(keyPb),
    custom_fees: (settings?.customFees ?? []).map(fixedCustomFeePb),
  };
}

export function fileContents(ledger: Ledger, id: unknown): Pb {
  const num = numOf(id, 'fileNum');
  const contents = ledger.files.get(num);
  ensure(contents !== undefined, 'INVALID_FILE_ID');
  ensure(!ledger.fileMeta.get(num)?.deleted, 'FILE_DELETED');
  return { fileID: filePb(num), contents };
}

export function fileInfo(ledger: Ledger, id: unknown): Pb {
  const num = numOf(id, 'fileNum');
  const contents = ledger.files.get(num);
  ensure(contents !== undefined, 'INVALID_FILE_ID');
  const meta = ledger.fileMeta.get(num);
  return {
    fileID: filePb(num),
    size: i64(BigInt(contents.length)),
    ...(meta ? { expirationTime: timestampPb(meta.expirationNs) } : {}),
    deleted: Boolean(meta?.deleted),
    keys: { keys: (meta?.keys ?? []).map(keyPb) },
    memo: meta?.memo ?? '',
    ledger_id: LEDGER_ID,
  };
}

export function contractInfo(ledger: Ledger, id: unknown): Pb {
  const num = contractNumOf(ledger, id);
  const contract = ledger.contracts.get(num);
  ensure(contract, 'INVALID_CONTRACT_ID');
  const settings = contract.settings;
  return {
    contractID: contractPb(num),
    accountID: accountPb(num),
    contractAccountID: hex(longZeroAddress(num)),
    // A contract without an admin key shows its own id as the key, as the node reports an immutable contract.
    ...keyField('adminKey', settings?.adminKey ?? { kind: 'contract', contract: num }),
    ...(settings?.expirationNs !== undefined ? { expirationTime: timestampPb(settings.expirationNs) } : {}),
    autoRenewPeriod: seconds(settings?.autoRenewSeconds ?? 7_776_000n),
    // As the node counts it: 64 bytes for each key-value pair.
    storage: i64(BigInt(contract.storage.size * 64)),
    memo: settings?.memo ?? contract.kind,
    balance: i64(contract.balance),
    deleted: Boolean(settings?.deleted),
    ledger_id: LEDGER_ID,
    ...(settings?.autoRenewAccount !== undefined
      ? { auto_renew_account_id: accountPb(settings.autoRenewAccount) }
      : {}),
    max_automatic_token_associations: settings?.maxAutoAssociations ?? 0,
    staking_info: { decline_reward: false },
  };
}

export function contractBytecode(ledger: Ledger, id: unknown): Uint8Array {
  const contract = ledger.contracts.get(contractNumOf(ledger, id));
  ensure(contract, 'INVALID_CONTRACT_ID');
  ensure(!contract.settings?.deleted, 'CONTRACT_DELETED');
  return contract.runtime;
}

export function scheduleInfo(ledger: Ledger, id: unknown): Pb {
  const num = numOf(id, 'scheduleNum');
  const schedule = ledger.schedules.get(num);
  ensure(schedule?.submitted, 'INVALID_SCHEDULE_ID');
  const submitted = schedule.submitted;
  const signers = submitted.signatories.map((signer) =>
    signer.length === 64 ? { ed25519: Buffer.from(signer, 'hex') } : { ECDSA_secp256k1: Buffer.from(signer, 'hex') },
  );
  return {
    scheduleID: schedulePb(num),
    ...(submitted.deletedNs !== undefined ? { deletion_time: timestampPb(submitted.deletedNs) } : {}),
    ...(submitted.executedNs !== undefined ? { execution_time: timestampPb(submitted.executedNs) } : {}),
    expirationTime: timestampPb(submitted.expirationNs),
    scheduledTransactionBody: submitted.body.scheduledTransactionBody,
    memo: submitted.memo,
    ...keyField('adminKey', submitted.adminKey),
    signers: { keys: signers },
    creatorAccountID: accountPb(schedule.creator),
    payerAccountID: accountPb(schedule.payer),
    scheduledTransactionID: schedule.scheduledId,
    ledger_id: LEDGER_ID,
    wait_for_expiry: submitted.waitForExpiry,
  };
}
