/** Backfill progress: files/s, transactions/s and how far consensus time lags behind the wall clock. */
export class Progress {
  private readonly startedAt = performance.now();
  private files = 0;
  private transactions = 0;
  private lastReportAt = performance.now();
  private readonly intervalMs: number;

  constructor(intervalMs = 10_000) {
    this.intervalMs = intervalMs;
  }

  /** Counts a written file; returns a progress line when one is due. */
  record(transactions: number, consensusEnd: bigint, nowMs = Date.now()): Record<string, unknown> | undefined {
    this.files++;
    this.transactions += transactions;
    const now = performance.now();
    if (now - this.lastReportAt < this.intervalMs) return undefined;
    this.lastReportAt = now;
    return this.summary(consensusEnd, nowMs);
  }

  summary(consensusEnd: bigint | undefined, nowMs = Date.now()): Record<string, unknown> {
    const seconds = Math.max((performance.now() - this.startedAt) / 1000, 1e-9);
    return {
      msg: 'progress',
      files: this.files,
      transactions: this.transactions,
      filesPerSecond: Number((this.files / seconds).toFixed(2)),
      transactionsPerSecond: Math.round(this.transactions / seconds),
      lagSeconds:
        consensusEnd === undefined
          ? null
          : Math.max(0, Math.round(nowMs / 1000 - Number(consensusEnd / 1_000_000_000n))),
    };
  }
}
