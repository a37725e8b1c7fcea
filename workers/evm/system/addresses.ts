/** The system contracts' addresses (long-zero, shard and realm 0) by number, and the zero address. */
export const ZERO_ADDRESS = new Uint8Array(20);

export const HTS_ADDRESS = 0x167;
export const EXCHANGE_RATE_ADDRESS = 0x168;
export const PRNG_ADDRESS = 0x169;
export const HAS_ADDRESS = 0x16a;
export const HSS_ADDRESS = 0x16b;
