/**
 * How long a lost connection waits for a stop to explain it. Ctrl-C in `npm start` reaches the local Postgres and the
 * ingest at once; the server's goodbye on the connection was seen to arrive up to a millisecond before the ingest
 * read its own signal, in an earlier turn of the event loop. A warning later by this much costs nothing.
 */
export const STOP_GRACE_MS = 250;

/**
 * What the ingest does with an error its database client emits between statements. Such an error is reported,
 * not thrown: the statement in flight, if any, fails on its own, and `runResiliently` waits and runs again. It is not reported
 * when a stop is asked before it or within `graceMs` after it: the server then ends its connections because the
 * same Ctrl-C stopped it, and a warning would only alarm. The timer does not keep a finishing process alive.
 */
export function connectionLossHandler(
  stopping: AbortSignal,
  log: (fields: Record<string, unknown>) => void,
  graceMs = STOP_GRACE_MS,
): (error: Error) => void {
  return (error) => {
    setTimeout(() => {
      if (!stopping.aborted) log({ msg: 'database connection lost', level: 'warn', error: error.message });
    }, graceMs).unref();
  };
}
