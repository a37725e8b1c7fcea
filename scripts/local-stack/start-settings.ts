import { databaseUrlProblem, hidePassword } from '../../db/database-url.ts';

/**
 * The settings `npm start` reads from its environment, checked before anything starts: a value it cannot use is
 * one line naming the variable, the value and what to give instead.
 */
export interface StartSettings {
  readonly apiPort: number;
  /** Milliseconds every round trip to the database waits (0: none). */
  readonly dbDelayMs: number;
  /** The Postgres to use instead of the embedded one. */
  readonly databaseUrl: string | undefined;
}

/** A start-up failure: its message is the whole line the user sees after `start failed: `. */
export class StartError extends Error {
  override name = 'StartError';
}

export function readStartSettings(env: NodeJS.ProcessEnv): StartSettings {
  return {
    apiPort: readPort(env.PORT),
    dbDelayMs: readDelay(env.DB_DELAY_MS),
    databaseUrl:
      env.DATABASE_URL === undefined || env.DATABASE_URL === '' ? undefined : readDatabaseUrl(env.DATABASE_URL),
  };
}

function readPort(value: string | undefined): number {
  if (value === undefined || value === '') return 8787;
  const port = /^\d{1,5}$/.test(value) ? Number(value) : Number.NaN;
  if (!(port >= 1 && port <= 65_535)) {
    throw new StartError(`PORT=${value} is not a TCP port: set PORT to a number from 1 to 65535 (default 8787)`);
  }
  return port;
}

function readDelay(value: string | undefined): number {
  if (value === undefined || value === '') return 0;
  const ms = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(ms)) {
    throw new StartError(`DB_DELAY_MS=${value} is not a number of milliseconds: set it to 0 or more (default 0)`);
  }
  return ms;
}

function readDatabaseUrl(value: string): string {
  const problem = databaseUrlProblem(value);
  if (problem) {
    throw new StartError(`DATABASE_URL=${hidePassword(value)} ${problem}, or unset it for the embedded database`);
  }
  return value;
}
