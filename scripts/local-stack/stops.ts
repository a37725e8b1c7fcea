/**
 * What a script started, stopped in reverse order when it ends or on SIGINT/SIGTERM (then exiting 130): the local
 * stack's shared shutdown for the benches.
 */
export function stopsOnSignal(): { stops: (() => Promise<void>)[]; stopAll: () => Promise<void> } {
  const stops: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    // splice: each stop runs once, even if a signal arrives while the script is already stopping.
    for (const stop of stops.splice(0).reverse()) await stop().catch(() => {});
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => void stopAll().then(() => process.exit(130)));
  }
  return { stops, stopAll };
}
