/** Serialises writers: two ingest processes on one database never interleave their files. */
export const WRITER_LOCK = 7_283_911;
