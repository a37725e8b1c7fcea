/** A stream file that failed verification: nothing of it may be written. Names the file and the reason. */
export class RejectedFileError extends Error {
  override name = 'RejectedFileError';
  readonly file: string;
  readonly reason: string;

  constructor(file: string, reason: string) {
    super(`rejected ${file}: ${reason}`);
    this.file = file;
    this.reason = reason;
  }
}
