/** The handler of each kind of transaction body a node accepts; any other kind answers `NOT_SUPPORTED` at precheck. */
import { randomBytes } from 'node:crypto';
import { sha384 } from '../../hash.ts';
import { ensure, type TxHandler } from '../handling.ts';
import { tokenAirdrop, tokenCancelAirdrop, tokenClaimAirdrop } from './airdrop.ts';
import { approveAllowance, deleteAllowance } from './allowance.ts';
import { contractCall, contractCreate, contractDelete, contractUpdate } from './contract.ts';
import { cryptoCreate, cryptoDelete, cryptoUpdate } from './crypto.ts';
import { ethereumTransaction } from './ethereum.ts';
import { fileAppend, fileCreate, fileDelete, fileUpdate } from './file.ts';
import { scheduleCreate, scheduleDelete, scheduleSign } from './schedule.ts';
import {
  tokenAssociate,
  tokenCreate,
  tokenDelete,
  tokenDissociate,
  tokenFreeze,
  tokenGrantKyc,
  tokenPause,
  tokenRevokeKyc,
  tokenUnfreeze,
  tokenUnpause,
} from './token.ts';
import { tokenReject } from './token-reject.ts';
import { tokenFeeScheduleUpdate, tokenUpdateNfts } from './token-schedules.ts';
import { tokenBurn, tokenMint, tokenWipe } from './token-supply.ts';
import { tokenUpdate } from './token-update.ts';
import { submitMessage, topicCreate, topicDelete, topicUpdate } from './topic.ts';
import { cryptoTransfer } from './transfer.ts';

/** UtilPrng: 48 random bytes, or a number in [0, range) when a range is given. */
const utilPrng: TxHandler = {
  price: () => ({ kind: 'utilPrng' }),
  pure: (data) => ensure(Number(data.range ?? 0) >= 0, 'INVALID_PRNG_RANGE'),
  handle: ({ data }) => ({
    requiredKeys: [],
    execute: () => {
      const bytes = sha384(randomBytes(48));
      const range = Number(data.range ?? 0);
      if (range === 0) return { record: { prng_bytes: bytes } };
      const value = Buffer.from(bytes).readUInt32BE(0) % range;
      return { record: { prng_number: value } };
    },
  }),
};

export const HANDLERS: Readonly<Record<string, TxHandler>> = {
  cryptoCreateAccount: cryptoCreate,
  cryptoUpdateAccount: cryptoUpdate,
  cryptoDelete,
  cryptoTransfer,
  cryptoApproveAllowance: approveAllowance,
  cryptoDeleteAllowance: deleteAllowance,
  tokenCreation: tokenCreate,
  tokenAssociate,
  tokenDissociate,
  tokenMint,
  tokenBurn,
  tokenWipe,
  tokenFreeze,
  tokenUnfreeze,
  tokenGrantKyc,
  tokenRevokeKyc,
  token_pause: tokenPause,
  token_unpause: tokenUnpause,
  tokenDeletion: tokenDelete,
  tokenUpdate,
  token_fee_schedule_update: tokenFeeScheduleUpdate,
  token_update_nfts: tokenUpdateNfts,
  tokenReject,
  tokenAirdrop,
  tokenClaimAirdrop,
  tokenCancelAirdrop,
  consensusCreateTopic: topicCreate,
  consensusUpdateTopic: topicUpdate,
  consensusDeleteTopic: topicDelete,
  consensusSubmitMessage: submitMessage,
  fileCreate,
  fileAppend,
  fileUpdate,
  fileDelete,
  contractCreateInstance: contractCreate,
  contractCall,
  contractUpdateInstance: contractUpdate,
  contractDeleteInstance: contractDelete,
  ethereumTransaction,
  scheduleCreate,
  scheduleSign,
  scheduleDelete,
  util_prng: utilPrng,
};

/** Kinds a schedule may hold (the node's whitelist, less what this network does not run). */
export const SCHEDULABLE = new Set(
  Object.keys(HANDLERS).filter((kind) => !['ethereumTransaction', 'scheduleCreate', 'scheduleSign'].includes(kind)),
);
