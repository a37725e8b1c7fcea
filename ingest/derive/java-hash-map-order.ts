/**
 * The iteration order of a java.util.HashMap<Long, …> holding `keys` (inserted in this order): by bucket of the
 * spread Long hash in a table of the size the map grows to (16, doubled past 3/4 full), insertion order within a
 * bucket.
 */
export function javaHashMapOrder(keys: readonly bigint[]): bigint[] {
  let size = 16;
  while (keys.length > size * 0.75) size *= 2;
  const bucket = (key: bigint) => {
    const h = Number(BigInt.asIntN(32, key ^ (key >> 32n)));
    return (h ^ (h >>> 16)) & (size - 1);
  };
  return keys
    .map((key, at) => ({ key, at, bucket: bucket(key) }))
    .sort((a, b) => a.bucket - b.bucket || a.at - b.at)
    .map((entry) => entry.key);
}
