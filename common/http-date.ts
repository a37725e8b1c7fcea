let formattedSecond = Number.NaN;
let formatted = '';

/**
 * The HTTP Date value (IMF-fixdate) of the time `now`, in milliseconds since the epoch. The header has a
 * resolution of one second, so the text is made once per second and shared by the responses of that second. The
 * Worker's responses and the local SQL proxy's (`db/local/http-server.ts`) both take it from here.
 */
export function httpDate(now: number): string {
  const second = Math.floor(now / 1000);
  if (second !== formattedSecond) {
    formattedSecond = second;
    formatted = new Date(second * 1000).toUTCString();
  }
  return formatted;
}
