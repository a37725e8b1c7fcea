/**
 * Entity reads for one session at one block, each made once: the EVM's state and the system contracts share them,
 * and the runs of an estimate repeat none. Latest calls read `entity`; historical ones the row valid at the
 * block's `consensus_end` and the balance the snapshots and transfers give at that time.
 */
import { hexOfBytes } from '../../db/bytea.ts';
import type { Database } from '../../db/client.ts';
import { historicalBalance } from '../../db/queries/evm-balances.ts';
import {
  currentEvmEntity,
  type EvmEntityRow,
  evmEntityIdByAddress,
  historicalEvmEntity,
} from '../../db/queries/evm-entities.ts';
import { ADDRESS_BYTES, entityIdOfLongZero, longZeroAddress } from './addresses.ts';
import { createLatestCaches, type LatestCaches } from './latest-cache.ts';
import type { BlockContext, EvmEntity, EvmSettings, LedgerReader } from './types.ts';

const optionalBigint = (value: string | null): bigint | undefined => (value === null ? undefined : BigInt(value));
const optionalBytes = (value: Uint8Array | null): Uint8Array | undefined =>
  value === null || value.length === 0 ? undefined : value;

function entityOf(row: EvmEntityRow, balance: bigint): EvmEntity {
  const alias = optionalBytes(row.alias);
  const evmAddress = optionalBytes(row.evm_address) ?? (alias?.length === ADDRESS_BYTES ? alias : undefined);
  return {
    id: BigInt(row.id),
    type: row.type === 'UNKNOWN' ? 'ACCOUNT' : row.type,
    evmAddress,
    alias,
    key: optionalBytes(row.key),
    deleted: row.deleted === true,
    balance,
    ethereumNonce: BigInt(row.ethereum_nonce ?? 0),
    createdTimestamp: optionalBigint(row.created_timestamp),
    expirationTimestamp: optionalBigint(row.expiration_timestamp),
    autoRenewPeriod: optionalBigint(row.auto_renew_period),
    autoRenewAccountId: optionalBigint(row.auto_renew_account_id),
    maxAutomaticTokenAssociations: row.max_automatic_token_associations ?? 0,
    receiverSigRequired: row.receiver_sig_required === true,
    memo: row.memo,
    delegationAddress: optionalBytes(row.delegation_address),
  };
}

const HAS_HBAR = new Set(['ACCOUNT', 'CONTRACT', 'UNKNOWN']);

export class SessionLedger implements LedgerReader {
  readonly db: Database;
  readonly block: BlockContext;
  readonly settings: EvmSettings;
  private readonly byId = new Map<bigint, Promise<EvmEntity | undefined>>();
  private readonly idByEvmAddress = new Map<string, Promise<bigint | undefined>>();
  readonly latest: LatestCaches;

  /** `latest`: reads of the latest state shared with other sessions; without it, this session's alone. */
  constructor(db: Database, block: BlockContext, settings: EvmSettings, latest: LatestCaches = createLatestCaches()) {
    this.db = db;
    this.block = block;
    this.settings = settings;
    this.latest = latest;
  }

  entityById(id: bigint): Promise<EvmEntity | undefined> {
    let entity = this.byId.get(id);
    if (!entity) {
      entity = this.loadEntity(id);
      this.byId.set(id, entity);
    }
    return entity;
  }

  /**
   * A long-zero address names the entity with that id, except an account that has an EVM address: it is known by
   * that address only (the consensus node treats the long-zero form as a different, missing account). A contract
   * stays reachable by both forms.
   */
  async entityByAddress(address: Uint8Array): Promise<EvmEntity | undefined> {
    const id = entityIdOfLongZero(address, this.settings.shard, this.settings.realm);
    if (id !== undefined) {
      const entity = await this.entityById(id);
      if (entity?.evmAddress && entity.type === 'ACCOUNT') return undefined;
      return entity;
    }
    const key = hexOfBytes(address);
    let found = this.idByEvmAddress.get(key);
    if (!found) {
      found = this.block.historical
        ? evmEntityIdByAddress(this.db, address, this.block.consensusEnd)
        : this.latest.entityIds.get(key, () => evmEntityIdByAddress(this.db, address, undefined));
      this.idByEvmAddress.set(key, found);
    }
    const evmId = await found;
    return evmId === undefined ? undefined : this.entityById(evmId);
  }

  canonicalAddress(entity: EvmEntity): Uint8Array {
    return entity.evmAddress ?? longZeroAddress(entity.id);
  }

  private async loadEntity(id: bigint): Promise<EvmEntity | undefined> {
    if (!this.block.historical) {
      const row = await this.latest.entities.get(String(id), () => currentEvmEntity(this.db, id));
      return row && entityOf(row, BigInt(row.balance ?? 0));
    }
    const at = this.block.consensusEnd;
    const [row, balance] = await Promise.all([
      historicalEvmEntity(this.db, id, at),
      historicalBalance(this.db, id, at),
    ]);
    return row && entityOf(row, HAS_HBAR.has(row.type) ? balance : 0n);
  }
}
