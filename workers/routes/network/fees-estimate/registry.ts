import { baseOnly, type ServiceCalculator } from './calculators/common.ts';
import { consensusCreateTopic, consensusSubmitMessage, consensusUpdateTopic } from './calculators/consensus.ts';
import { contractCreate, contractUpdate, hookStore, scheduleCreate } from './calculators/contract.ts';
import {
  cryptoApproveAllowance,
  cryptoCreate,
  cryptoDeleteAllowance,
  cryptoTransfer,
  cryptoUpdate,
  tokenAirdrop,
} from './calculators/crypto.ts';
import { fileAppend, fileCreateOrUpdate, systemFileOperation } from './calculators/file.ts';
import { tokenAssociate, tokenCreate, tokenMint, tokenUpdate, tokenUpdateNfts } from './calculators/token.ts';
import { HEDERA_FUNCTIONALITY as F } from './hedera-functionality.ts';

export interface TransactionType {
  /** Its `HederaFunctionality`: the schedule entry it is priced by, and whether high-volume pricing applies. */
  functionality: number;
  /** The entry whose base fee and extras price its service fee, when not its own (airdrops: a transfer's). */
  pricedAs?: number;
  calculate: ServiceCalculator;
}

const type = (functionality: number | undefined, calculate = baseOnly, pricedAs?: number): TransactionType => ({
  functionality: functionality as number,
  calculate,
  ...(pricedAs === undefined ? {} : { pricedAs }),
});

/**
 * The transaction types the consensus node has a fee calculator for, by their `TransactionBody.data` field number.
 * Types without one (Freeze, UncheckedSubmit, NodeStakeUpdate, the node-internal system transactions) are unknown
 * to an estimate, as to the reference.
 */
export const TRANSACTION_TYPES: ReadonlyMap<number, TransactionType> = new Map([
  [7, type(F.ContractCall)],
  [8, type(F.ContractCreate, contractCreate)],
  [9, type(F.ContractUpdate, contractUpdate)],
  [11, type(F.CryptoCreate, cryptoCreate)],
  [12, type(F.CryptoDelete)],
  [14, type(F.CryptoTransfer, cryptoTransfer)],
  [15, type(F.CryptoUpdate, cryptoUpdate)],
  [16, type(F.FileAppend, fileAppend)],
  [17, type(F.FileCreate, fileCreateOrUpdate)],
  [18, type(F.FileDelete)],
  [19, type(F.FileUpdate, fileCreateOrUpdate)],
  [20, type(F.SystemDelete, systemFileOperation)],
  [21, type(F.SystemUndelete, systemFileOperation)],
  [22, type(F.ContractDelete)],
  [24, type(F.ConsensusCreateTopic, consensusCreateTopic)],
  [25, type(F.ConsensusUpdateTopic, consensusUpdateTopic)],
  [26, type(F.ConsensusDeleteTopic)],
  [27, type(F.ConsensusSubmitMessage, consensusSubmitMessage)],
  [29, type(F.TokenCreate, tokenCreate)],
  [31, type(F.TokenFreezeAccount)],
  [32, type(F.TokenUnfreezeAccount)],
  [33, type(F.TokenGrantKycToAccount)],
  [34, type(F.TokenRevokeKycFromAccount)],
  [35, type(F.TokenDelete)],
  [36, type(F.TokenUpdate, tokenUpdate)],
  [37, type(F.TokenMint, tokenMint)],
  [38, type(F.TokenBurn)],
  [39, type(F.TokenAccountWipe)],
  [40, type(F.TokenAssociateToAccount, tokenAssociate)],
  [41, type(F.TokenDissociateFromAccount)],
  [42, type(F.ScheduleCreate, scheduleCreate)],
  [43, type(F.ScheduleDelete)],
  [44, type(F.ScheduleSign)],
  [45, type(F.TokenFeeScheduleUpdate)],
  [46, type(F.TokenPause)],
  [47, type(F.TokenUnpause)],
  [48, type(F.CryptoApproveAllowance, cryptoApproveAllowance)],
  [49, type(F.CryptoDeleteAllowance, cryptoDeleteAllowance)],
  [50, type(F.EthereumTransaction)],
  [52, type(F.UtilPrng)],
  [53, type(F.TokenUpdateNfts, tokenUpdateNfts)],
  [54, type(F.NodeCreate)],
  [55, type(F.NodeUpdate)],
  [56, type(F.NodeDelete)],
  [57, type(F.TokenReject)],
  [58, type(F.TokenAirdrop, tokenAirdrop, F.CryptoTransfer)],
  [59, type(F.TokenCancelAirdrop)],
  [60, type(F.TokenClaimAirdrop)],
  [74, type(F.AtomicBatch)],
  [75, type(F.HookStore, hookStore)],
  [78, type(F.RegisteredNodeCreate)],
  [79, type(F.RegisteredNodeUpdate)],
  [80, type(F.RegisteredNodeDelete)],
]);

/** Every field number of `TransactionBody.data`, known to an estimate or not. */
export const BODY_DATA_FIELDS: readonly number[] = [
  ...Array.from({ length: 54 }, (_, i) => i + 7).filter((number) => number !== 30),
  65,
  66,
  67,
  68,
  69,
  70,
  71,
  72,
  74,
  75,
  76,
  77,
  78,
  79,
  80,
  81,
];
