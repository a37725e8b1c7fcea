/**
 * Transfer lists as nodes write them into records: one entry per account (amounts netted), sorted by account
 * number, zero entries dropped; token lists sorted by token, NFT transfers in the order they happened.
 */
import { accountPb, i64, tokenPb } from '../ledger/ids.ts';

export class HbarTransfers {
  readonly amounts = new Map<bigint, bigint>();

  add(account: bigint, amount: bigint): this {
    if (amount !== 0n) this.amounts.set(account, (this.amounts.get(account) ?? 0n) + amount);
    return this;
  }

  /** Netted, without zero entries: what the ledger applies. */
  netted(): Map<bigint, bigint> {
    const out = new Map<bigint, bigint>();
    for (const [account, amount] of this.amounts) if (amount !== 0n) out.set(account, amount);
    return out;
  }

  /** The record's TransferList.accountAmounts. */
  toPb(approvals: ReadonlySet<bigint> = new Set()): Record<string, unknown>[] {
    return [...this.netted()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([account, amount]) => ({
        accountID: accountPb(account),
        amount: i64(amount),
        ...(approvals.has(account) && amount < 0n ? { is_approval: true } : {}),
      }));
  }
}

export interface NftMove {
  readonly serial: bigint;
  readonly from: bigint;
  readonly to: bigint;
  readonly approval?: boolean;
}

/** Token transfers of one transaction, grouped per token. */
export class TokenTransfers {
  private readonly fungible = new Map<bigint, HbarTransfers>();
  private readonly approvals = new Map<bigint, Set<bigint>>();
  private readonly nfts = new Map<bigint, NftMove[]>();
  private readonly decimals = new Map<bigint, number>();

  add(token: bigint, account: bigint, amount: bigint, approval = false): this {
    let list = this.fungible.get(token);
    if (!list) {
      list = new HbarTransfers();
      this.fungible.set(token, list);
    }
    list.add(account, amount);
    if (approval) {
      const set = this.approvals.get(token) ?? new Set<bigint>();
      set.add(account);
      this.approvals.set(token, set);
    }
    return this;
  }

  /** Body transfer lists carry the decimals the sender expects (records never do). */
  expectDecimals(token: bigint, decimals: number): this {
    this.decimals.set(token, decimals);
    return this;
  }

  nft(token: bigint, move: NftMove): this {
    const list = this.nfts.get(token) ?? [];
    list.push(move);
    this.nfts.set(token, list);
    return this;
  }

  get isEmpty(): boolean {
    return this.fungible.size === 0 && this.nfts.size === 0;
  }

  /** Fungible deltas per token and account, for the ledger. */
  fungibleDeltas(): [bigint, bigint, bigint][] {
    const out: [bigint, bigint, bigint][] = [];
    for (const [token, list] of this.fungible)
      for (const [account, amount] of list.netted()) out.push([token, account, amount]);
    return out;
  }

  nftMoves(): [bigint, NftMove][] {
    const out: [bigint, NftMove][] = [];
    for (const [token, moves] of this.nfts) for (const move of moves) out.push([token, move]);
    return out;
  }

  /** Token transfer lists; `withDecimals` for transaction bodies, which state the decimals the sender expects. */
  toPb(withDecimals = false): Record<string, unknown>[] {
    const tokens = [...new Set([...this.fungible.keys(), ...this.nfts.keys()])].sort((a, b) => (a < b ? -1 : 1));
    return tokens.map((token) => {
      const decimals = withDecimals ? this.decimals.get(token) : undefined;
      return {
        token: tokenPb(token),
        transfers: this.fungible.get(token)?.toPb(this.approvals.get(token)) ?? [],
        nftTransfers: (this.nfts.get(token) ?? []).map((move) => ({
          senderAccountID: accountPb(move.from),
          receiverAccountID: accountPb(move.to),
          serialNumber: i64(move.serial),
          ...(move.approval ? { is_approval: true } : {}),
        })),
        ...(decimals !== undefined ? { expected_decimals: { value: decimals } } : {}),
      };
    });
  }
}
