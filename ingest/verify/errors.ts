/**
 * A stream file that failed verification: nothing of it may be written. Names the file and the reason.
 * `signaturesPending`: consensus is not reached yet, but the nodes whose signature files are still missing could
 * reach it; the file may pass once they arrive (nodes upload them a moment apart).
 */
export class RejectedFileError extends Error {
  override name = 'RejectedFileError';
  readonly file: string;
  readonly reason: string;
  readonly signaturesPending: boolean;

  constructor(file: string, reason: string, signaturesPending = false) {
    super(`rejected ${file}: ${reason}`);
    this.file = file;
    this.reason = reason;
    this.signaturesPending = signaturesPending;
  }
}
