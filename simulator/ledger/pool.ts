/** A set that also draws a uniformly random member in O(1): generators pick accounts, holders and allowances. */
import type { Random } from '../random.ts';

export class Pool<T> {
  private readonly items: T[] = [];
  private readonly index = new Map<T, number>();

  get size(): number {
    return this.items.length;
  }

  has(item: T): boolean {
    return this.index.has(item);
  }

  add(item: T): void {
    if (this.index.has(item)) return;
    this.index.set(item, this.items.length);
    this.items.push(item);
  }

  delete(item: T): void {
    const at = this.index.get(item);
    if (at === undefined) return;
    const last = this.items.pop() as T;
    this.index.delete(item);
    if (at < this.items.length) {
      this.items[at] = last;
      this.index.set(last, at);
    }
  }

  pick(random: Random): T | undefined {
    return this.items.length === 0 ? undefined : this.items[random.int(0, this.items.length - 1)];
  }

  /** Up to `tries` random draws, returning the first that satisfies `accept`. */
  find(random: Random, accept: (item: T) => boolean, tries = 8): T | undefined {
    for (let i = 0; i < tries; i++) {
      const item = this.pick(random);
      if (item === undefined) return undefined;
      if (accept(item)) return item;
    }
    return undefined;
  }

  values(): readonly T[] {
    return this.items;
  }
}
