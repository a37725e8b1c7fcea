export interface Difference {
  /** Offset of the first differing character. */
  at: number;
  /** The two texts around that offset: `reference «…» vs edge-mirror «…»`. */
  context: string;
}

const CONTEXT = 40;

/** Where two texts first differ, or undefined when they are identical. */
export function firstDifference(expected: string, actual: string): Difference | undefined {
  if (expected === actual) return undefined;
  let at = 0;
  while (at < expected.length && at < actual.length && expected[at] === actual[at]) at++;
  const from = Math.max(0, at - CONTEXT);
  const around = (text: string) => text.slice(from, at + CONTEXT);
  return { at, context: `reference «${around(expected)}» vs edge-mirror «${around(actual)}»` };
}
