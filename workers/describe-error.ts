/** An error as a log line shows it: its stack (which starts with its name and message), or its text. */
export const describeError = (error: unknown): string =>
  error instanceof Error ? (error.stack ?? `${error.name}: ${error.message}`) : String(error);
