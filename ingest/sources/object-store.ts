/**
 * Where stream files come from, reduced to what the ingest needs from a bucket: list keys under a prefix
 * after a given key (sorted, like S3 ListObjectsV2 with `start-after`), list the "folders" under a prefix,
 * and read one object. A local directory and S3/GCS buckets implement it; tests and the network simulator
 * can supply their own.
 */
export interface ObjectStore {
  /** For logs: `dir:/data/streams`, `s3://bucket/prefix`. */
  readonly description: string;
  /** Keys (relative to the store root) under `prefix`, lexicographically after `startAfter`, at most `limit`. */
  list(prefix: string, startAfter: string, limit: number): Promise<string[]>;
  /** Immediate sub-folders of `prefix`, each ending in `/`. */
  listFolders(prefix: string): Promise<string[]>;
  /** The object's bytes, or undefined when it does not exist. */
  get(key: string): Promise<Uint8Array | undefined>;
}
