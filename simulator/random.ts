/**
 * The simulator's only source of randomness: a seeded sfc32 generator, so one seed always yields the same files
 * byte for byte. Never use Math.random() or the clock inside the generation path.
 */

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: string | number) {
    // Seed expansion with the cyrb128 string hash: any string maps onto the four 32-bit words of state.
    const text = String(seed);
    let h1 = 1779033703;
    let h2 = 3144134277;
    let h3 = 1013904242;
    let h4 = 2773480762;
    for (let i = 0; i < text.length; i++) {
      const k = text.charCodeAt(i);
      h1 = h2 ^ Math.imul(h1 ^ k, 597399067);
      h2 = h3 ^ Math.imul(h2 ^ k, 2869860233);
      h3 = h4 ^ Math.imul(h3 ^ k, 951274213);
      h4 = h1 ^ Math.imul(h4 ^ k, 2716044179);
    }
    h1 = Math.imul(h3 ^ (h1 >>> 18), 597399067);
    h2 = Math.imul(h4 ^ (h2 >>> 22), 2869860233);
    h3 = Math.imul(h1 ^ (h3 >>> 17), 951274213);
    h4 = Math.imul(h2 ^ (h4 >>> 19), 2716044179);
    this.a = (h1 ^ h2 ^ h3 ^ h4) >>> 0;
    this.b = (h2 ^ h1) >>> 0;
    this.c = (h3 ^ h1) >>> 0;
    this.d = (h4 ^ h1) >>> 0;
    for (let i = 0; i < 15; i++) this.uint32();
  }

  uint32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max] (inclusive), for ranges below 2^32. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** Uniform bigint in [min, max] (inclusive), for amounts beyond 2^53. */
  bigint(min: bigint, max: bigint): bigint {
    const span = max - min + 1n;
    const draw = (BigInt(this.uint32()) << 32n) | BigInt(this.uint32());
    return min + (draw % span);
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  bytes(length: number): Uint8Array {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i += 4) {
      const word = this.uint32();
      out[i] = word & 0xff;
      if (i + 1 < length) out[i + 1] = (word >>> 8) & 0xff;
      if (i + 2 < length) out[i + 2] = (word >>> 16) & 0xff;
      if (i + 3 < length) out[i + 3] = word >>> 24;
    }
    return out;
  }

  /** A key into `weights` drawn with probability proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Partial<Record<K, number>>>): K {
    let total = 0;
    for (const key in weights) total += weights[key] ?? 0;
    let draw = this.next() * total;
    let last: K | undefined;
    for (const key in weights) {
      last = key;
      draw -= weights[key] ?? 0;
      if (draw < 0) return key;
    }
    if (last === undefined) throw new Error('no weights');
    return last;
  }

  /** Lower-case words for memos, names and messages. */
  words(count: number): string {
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(this.pick(WORDS));
    return out.join(' ');
  }
}

const WORDS = [
  'alpha',
  'amber',
  'anchor',
  'aurora',
  'basil',
  'beacon',
  'birch',
  'bloom',
  'cedar',
  'cinder',
  'cobalt',
  'comet',
  'coral',
  'delta',
  'dune',
  'ember',
  'fable',
  'fern',
  'flint',
  'galaxy',
  'garnet',
  'harbor',
  'hazel',
  'indigo',
  'iris',
  'jade',
  'juniper',
  'kelp',
  'lagoon',
  'lantern',
  'lumen',
  'maple',
  'meadow',
  'nectar',
  'nova',
  'oasis',
  'onyx',
  'orbit',
  'pebble',
  'prism',
  'quartz',
  'quill',
  'raven',
  'ripple',
  'saffron',
  'sage',
  'summit',
  'tidal',
  'topaz',
  'tundra',
  'umber',
  'valley',
  'velvet',
  'willow',
  'zenith',
  'zephyr',
];
