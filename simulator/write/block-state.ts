/**
 * The state changes a block reports for each transaction, derived from what the transaction did (its record,
 * body and sidecars) plus running balances this tracker keeps: account balances (ACCOUNTS), token supplies
 * (TOKENS), token relations (TOKEN_RELS), NFT owners (NFTS), topics (TOPICS), schedules (SCHEDULES_BY_ID),
 * contract storage (STORAGE), runtime code (BYTECODE) and system files (FILES). Values carry the fields that
 * changed, as map updates may.
 */
import type { SimItem } from '../network/network.ts';
import { blockTypes, type StateValueKind } from './block-proto.ts';

const STATE_ID = {
  storage: 4,
  bytecode: 5,
  files: 6,
  tokens: 7,
  nfts: 8,
  tokenRels: 9,
  accounts: 2,
  schedules: 14,
  topics: 21,
} as const;
const SUCCESS = 22;

// biome-ignore lint/suspicious/noExplicitAny: records and bodies are the simulator's own plain protobuf objects
type Plain = Record<string, any>;

const num = (id: Plain | undefined, field: string): bigint => BigInt(id?.[field] ?? 0);
/** A map update; `value` names its one kind (`{ account_value: {...} }`), serialized as the block schema keeps it. */
const update = (stateId: number, key: Plain, value: Partial<Record<StateValueKind, Plain>>) => {
  const [kind, message] = Object.entries(value)[0] as [StateValueKind, Plain];
  const bytes = blockTypes().stateValues[kind].encode(message).finish();
  return { state_id: stateId, map_update: { key, value: { [kind]: bytes } } };
};
const remove = (stateId: number, key: Plain) => ({ state_id: stateId, map_delete: { key } });
const i64 = (value: bigint) =>
  value <= 9_007_199_254_740_991n && value >= -9_007_199_254_740_991n ? Number(value) : String(value);

export interface StartingBalances {
  readonly hbar: ReadonlyMap<bigint, bigint>;
  /** `${account}/${token}` → balance. */
  readonly tokens: ReadonlyMap<string, bigint>;
}

export class BlockStateTracker {
  private readonly hbar: Map<bigint, bigint>;
  /** `${account}/${token}` → balance. */
  private readonly tokenBalances: Map<string, bigint>;

  /** Starts from the balances the ledger holds before the first block this run writes. */
  constructor(balances: StartingBalances) {
    this.hbar = new Map(balances.hbar);
    this.tokenBalances = new Map(balances.tokens);
  }

  changesOf(item: SimItem): Plain[] {
    const record = item.record as Plain;
    const body = item.body as Plain;
    const receipt = record.receipt as Plain;
    const out: Plain[] = [];
    for (const transfer of record.transferList?.accountAmounts ?? []) {
      const account = num(transfer.accountID, 'accountNum');
      const balance = (this.hbar.get(account) ?? 0n) + BigInt(transfer.amount);
      this.hbar.set(account, balance);
      out.push(
        update(
          STATE_ID.accounts,
          { account_id_key: transfer.accountID },
          { account_value: { account_id: transfer.accountID, tinybar_balance: i64(balance) } },
        ),
      );
    }
    if (receipt.status !== SUCCESS) return out;
    if (receipt.tokenID) {
      const token = {
        token_id: receipt.tokenID,
        ...(receipt.newTotalSupply !== undefined ? { total_supply: receipt.newTotalSupply } : {}),
      };
      const created = body.tokenCreation as Plain | undefined;
      const value = created
        ? {
            ...token,
            name: created.name,
            symbol: created.symbol,
            decimals: created.decimals ?? 0,
            total_supply: created.initialSupply ?? 0,
            treasury_account_id: created.treasury,
            token_type: created.tokenType ?? 0,
          }
        : token;
      out.push(update(STATE_ID.tokens, { token_id_key: receipt.tokenID }, { token_value: value }));
    } else if (receipt.newTotalSupply !== undefined) {
      const tokenID = (body.tokenMint ?? body.tokenBurn)?.token;
      out.push(
        update(
          STATE_ID.tokens,
          { token_id_key: tokenID },
          { token_value: { token_id: tokenID, total_supply: receipt.newTotalSupply } },
        ),
      );
    }
    for (const token of (body.tokenAssociate?.tokens ?? []) as Plain[])
      this.relation(out, body.tokenAssociate.account, token, 0n);
    for (const association of record.automatic_token_associations ?? [])
      this.relation(out, association.account_id, association.token_id, 0n);
    for (const list of record.tokenTransferLists ?? []) {
      for (const transfer of list.transfers ?? [])
        this.relation(out, transfer.accountID, list.token, BigInt(transfer.amount));
      for (const nft of list.nftTransfers ?? []) {
        // A treasury change of an NFT collection (serial -1) names no NFT: the treasury's serials move with it.
        if (Number(nft.serialNumber) < 0) continue;
        const key = { nft_id_key: { token_ID: list.token, serial_number: nft.serialNumber } };
        if (num(nft.senderAccountID, 'accountNum') !== 0n) this.relation(out, nft.senderAccountID, list.token, -1n);
        if (num(nft.receiverAccountID, 'accountNum') === 0n) out.push(remove(STATE_ID.nfts, key));
        else {
          this.relation(out, nft.receiverAccountID, list.token, 1n);
          out.push(
            update(STATE_ID.nfts, key, { nft_value: { nft_id: key.nft_id_key, owner_id: nft.receiverAccountID } }),
          );
        }
      }
    }
    const topicID = receipt.topicID ?? body.consensusSubmitMessage?.topicID;
    if (topicID) {
      const sequence = receipt.topicSequenceNumber;
      const value = {
        topic_id: topicID,
        ...(sequence ? { sequence_number: sequence, running_hash: receipt.topicRunningHash } : {}),
      };
      out.push(update(STATE_ID.topics, { topic_id_key: topicID }, { topic_value: value }));
    }
    if (receipt.scheduleID) {
      out.push(
        update(
          STATE_ID.schedules,
          { schedule_id_key: receipt.scheduleID },
          { schedule_value: { schedule_id: receipt.scheduleID } },
        ),
      );
    }
    if (record.scheduleRef) {
      out.push(
        update(
          STATE_ID.schedules,
          { schedule_id_key: record.scheduleRef },
          { schedule_value: { schedule_id: record.scheduleRef, executed: true } },
        ),
      );
    }
    if (body.fileUpdate) {
      const { fileID, contents } = body.fileUpdate as Plain;
      out.push(update(STATE_ID.files, { file_id_key: fileID }, { file_value: { file_id: fileID, contents } }));
    }
    if (body.fileCreate && receipt.fileID) {
      const fileID = receipt.fileID as Plain;
      const { contents } = body.fileCreate as Plain;
      out.push(update(STATE_ID.files, { file_id_key: fileID }, { file_value: { file_id: fileID, contents } }));
    }
    for (const sidecar of item.sidecars as Plain[]) {
      const code = sidecar.bytecode as Plain | undefined;
      if (code?.runtime_bytecode) {
        const key = { contract_id_key: code.contract_id };
        out.push(update(STATE_ID.bytecode, key, { bytecode_value: { code: code.runtime_bytecode } }));
      }
      for (const change of sidecar.state_changes?.contract_state_changes ?? []) {
        for (const slot of change.storage_changes ?? []) {
          if (!slot.value_written) continue;
          const key = { slot_key_key: { contractID: change.contract_id, ...(slot.slot ? { key: slot.slot } : {}) } };
          const value = slot.value_written.value;
          out.push(
            value ? update(STATE_ID.storage, key, { slot_value_value: { value } }) : remove(STATE_ID.storage, key),
          );
        }
      }
    }
    return out;
  }

  private relation(out: Plain[], account: Plain, token: Plain, delta: bigint): void {
    const id = `${num(account, 'accountNum')}/${num(token, 'tokenNum')}`;
    const balance = (this.tokenBalances.get(id) ?? 0n) + delta;
    this.tokenBalances.set(id, balance);
    const key = { token_relationship_key: { token_id: token, account_id: account } };
    out.push(
      update(STATE_ID.tokenRels, key, {
        token_relation_value: { token_id: token, account_id: account, balance: i64(balance) },
      }),
    );
  }
}
