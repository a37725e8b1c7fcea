/**
 * What the ingest does with an error its database client emits between statements. Such an error is reported,
 * not thrown: the statement in flight, if any, fails on its own and ends the run with its error. Once a stop was
 * asked it is not reported at all: Ctrl-C in `npm start` reaches the local Postgres in the same instant, and the
 * server ends its connections while the ingest finishes; a warning then would only alarm. The check waits for the
 * end of the event loop's turn: the signal that asks the stop and the server's message can be read in the same one,
 * in either order.
 */
export function connectionLossHandler(
  stopping: AbortSignal,
  log: (fields: Record<string, unknown>) => void,
): (error: Error) => void {
  return (error) => {
    setImmediate(() => {
      if (!stopping.aborted) log({ msg: 'database connection lost', level: 'warn', error: error.message });
    });
  };
}
