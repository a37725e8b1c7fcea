/**
 * An independent reading of the streams: sums every record's hbar and token transfers, follows NFT transfers,
 * counts topic messages and applies sidecar storage writes, the way a mirror derives its state. Tests compare
 * the result with the ledger model the simulator exported; any difference is a record that does not say
 * what the model did.
 */
import type { Plain, VerifiedFile } from './read-output.ts';

export interface ReplayedState {
  /** Account id string → sum of hbar transfers. */
  readonly hbar: Map<string, bigint>;
  /** `account/token` id strings → sum of fungible transfers (NFTs: count held). */
  readonly tokenBalances: Map<string, bigint>;
  /** `token/serial` → owner id string, null once burned. */
  readonly nftOwners: Map<string, string | null>;
  /** Topic id string → successful messages. */
  readonly topicMessages: Map<string, bigint>;
  /** Contract id string → slot hex → value hex (zero values removed). */
  readonly storage: Map<string, Map<string, string>>;
}

const SUCCESS = 22;
/** `0.0.N` of a plain AccountID / TokenID / … (shard and realm are always 0 here). */
const id = (message: Plain | undefined, field: string) => `0.0.${message?.[field] ?? '0'}`;
const add = (map: Map<string, bigint>, key: string, amount: bigint) => map.set(key, (map.get(key) ?? 0n) + amount);
const hex = (bytes: Uint8Array | undefined) =>
  bytes
    ? Buffer.from(bytes)
        .toString('hex')
        .replace(/^(00)+/, '')
    : '';

export function replay(files: readonly VerifiedFile[]): ReplayedState {
  const state: ReplayedState = {
    hbar: new Map(),
    tokenBalances: new Map(),
    nftOwners: new Map(),
    topicMessages: new Map(),
    storage: new Map(),
  };
  for (const file of files) {
    for (const { record, body, status } of file.items) {
      for (const transfer of record.transferList?.accountAmounts ?? []) {
        add(state.hbar, id(transfer.accountID, 'accountNum'), BigInt(transfer.amount ?? 0));
      }
      if (status !== SUCCESS) continue;
      for (const list of record.tokenTransferLists ?? []) {
        const token = id(list.token, 'tokenNum');
        for (const transfer of list.transfers ?? []) {
          add(state.tokenBalances, `${id(transfer.accountID, 'accountNum')}/${token}`, BigInt(transfer.amount ?? 0));
        }
        for (const nft of list.nftTransfers ?? []) {
          const sender = id(nft.senderAccountID, 'accountNum');
          const receiver = id(nft.receiverAccountID, 'accountNum');
          if (sender !== '0.0.0') add(state.tokenBalances, `${sender}/${token}`, -1n);
          if (receiver !== '0.0.0') add(state.tokenBalances, `${receiver}/${token}`, 1n);
          state.nftOwners.set(`${token}/${nft.serialNumber ?? 0}`, receiver === '0.0.0' ? null : receiver);
        }
      }
      if (body.consensusSubmitMessage)
        add(state.topicMessages, id(body.consensusSubmitMessage.topicID, 'topicNum'), 1n);
    }
    for (const record of file.sidecarRecords) {
      for (const change of record.state_changes?.contract_state_changes ?? []) {
        const contract = id(change.contract_id, 'contractNum');
        const slots = state.storage.get(contract) ?? new Map<string, string>();
        for (const slot of change.storage_changes ?? []) {
          if (!slot.value_written) continue;
          const value = hex(slot.value_written.value);
          if (value === '') slots.delete(hex(slot.slot));
          else slots.set(hex(slot.slot), value);
        }
        state.storage.set(contract, slots);
      }
    }
  }
  return state;
}
