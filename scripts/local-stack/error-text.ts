/**
 * An error as one line: its message, or what stands in for an empty one (Node's AggregateError of a refused
 * connection to `localhost` has none: its parts have), never `undefined`.
 */
export function errorText(error: unknown): string {
  if (!(error instanceof Error)) return error === undefined ? 'an unknown error' : String(error);
  if (error.message) return error.message.split('\n')[0] as string;
  if (error instanceof AggregateError && error.errors.length > 0) return errorText(error.errors[0]);
  const code = (error as NodeJS.ErrnoException).code;
  return code ?? error.name;
}
