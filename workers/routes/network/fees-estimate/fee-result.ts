/**
 * The fee of one transaction as the consensus node's simple-fees calculator builds it: node and service components
 * (a base plus charged extras) and the network multiplier, all in tinycents. Sums saturate at the int64 maximum as
 * the node's clamped arithmetic does.
 */

const LONG_MAX = 2n ** 63n - 1n;
const clamp = (value: bigint): bigint => (value > LONG_MAX ? LONG_MAX : value);

export interface ChargedExtra {
  name: string;
  /** Price of one unit. */
  perUnit: bigint;
  /** Units the transaction uses. */
  used: bigint;
  /** Units the base fee covers. */
  included: bigint;
  /** max(0, used - included). */
  charged: bigint;
}

export interface FeeComponent {
  base: bigint;
  extras: ChargedExtra[];
  total: bigint;
}

const emptyComponent = (): FeeComponent => ({ base: 0n, extras: [], total: 0n });

export class FeeResult {
  node = emptyComponent();
  service = emptyComponent();
  networkMultiplier = 0;
  /** HIP-1313 multiplier scaled by 1000 (1000 = 1x). */
  highVolumeMultiplier = 1000n;

  setNodeBase(fee: bigint): void {
    this.node.base = fee;
    this.node.total = clamp(this.node.total + fee);
  }

  setServiceBase(fee: bigint): void {
    this.service.base = fee;
    this.service.total = clamp(this.service.total + fee);
  }

  /** Only extras that charge something are listed, as the node lists them. */
  addNodeExtra(name: string, perUnit: bigint, used: bigint, included: bigint): void {
    addExtra(this.node, name, perUnit, used, included);
  }

  addServiceExtra(name: string, perUnit: bigint, used: bigint, included: bigint): void {
    addExtra(this.service, name, perUnit, used, included);
  }

  /** Zero fees in every component (system deletes, privileged file updates). */
  clear(): void {
    this.node = emptyComponent();
    this.service = emptyComponent();
    this.networkMultiplier = 0;
    this.highVolumeMultiplier = 1000n;
  }

  /** Scales bases, unit prices and totals by raw / scale, each rounded down on its own, as the node does. */
  applyMultiplier(raw: bigint, scale: bigint): void {
    if (raw === scale) return;
    for (const component of [this.node, this.service]) {
      component.base = clamp(component.base * raw) / scale;
      component.extras = component.extras.map((extra) => ({ ...extra, perUnit: clamp(extra.perUnit * raw) / scale }));
      component.total = clamp(component.total * raw) / scale;
    }
  }

  get networkTotal(): bigint {
    return clamp(this.node.total * BigInt(this.networkMultiplier));
  }

  get total(): bigint {
    return clamp(clamp(this.node.total + this.networkTotal) + this.service.total);
  }
}

function addExtra(component: FeeComponent, name: string, perUnit: bigint, used: bigint, included: bigint): void {
  const charged = used > included ? used - included : 0n;
  if (charged === 0n) return;
  component.extras.push({ name, perUnit, used, included, charged });
  component.total = clamp(component.total + clamp(perUnit * charged));
}
