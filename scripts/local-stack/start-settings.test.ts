import { describe, expect, it } from 'vitest';
import { readStartSettings } from './start-settings.ts';

describe('the settings npm start reads', () => {
  it('defaults to port 8787, no delay and the embedded database', () => {
    expect(readStartSettings({})).toEqual({ apiPort: 8787, dbDelayMs: 0, databaseUrl: undefined });
  });

  it('takes a port, a delay and a Postgres URL', () => {
    const env = { PORT: '18711', DB_DELAY_MS: '20', DATABASE_URL: 'postgresql://u:p@db.example:5432/mirror' };
    expect(readStartSettings(env)).toEqual({ apiPort: 18711, dbDelayMs: 20, databaseUrl: env.DATABASE_URL });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT=abc is not a TCP port: set PORT to a number from 1 to 65535 (default 8787)'],
    [{ PORT: '65536' }, 'PORT=65536 is not a TCP port: set PORT to a number from 1 to 65535 (default 8787)'],
    [{ DB_DELAY_MS: '-1' }, 'DB_DELAY_MS=-1 is not a number of milliseconds: set it to 0 or more (default 0)'],
    [
      { DATABASE_URL: 'notaurl' },
      'DATABASE_URL=notaurl is not a Postgres URL: set it to postgres://USER:PASSWORD@HOST:PORT/DATABASE, or unset it for the embedded database',
    ],
    [
      { DATABASE_URL: 'mysql://u:secret@host/db' },
      'DATABASE_URL=mysql://u:***@host/db is not a Postgres URL: set it to postgres://USER:PASSWORD@HOST:PORT/DATABASE, or unset it for the embedded database',
    ],
  ])('refuses %j in one line', (env, message) => {
    expect(() => readStartSettings(env)).toThrow(message);
  });
});
