import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useTestDatabase } from '../../test/harness/test-database.ts';
import { PgConnection, PgServerError, type PgTarget } from './pg-connection.ts';

const db = useTestDatabase();
let target: PgTarget;
const open: PgConnection[] = [];

beforeAll(() => {
  const url = new URL(db.url);
  target = {
    socketPath: `${inject('pgSocketDir')}/.s.PGSQL.${url.port}`,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: url.pathname.slice(1),
  };
});

afterAll(async () => {
  for (const connection of open) await connection.close();
});

async function connect(over: Partial<PgTarget> = {}): Promise<PgConnection> {
  const connection = await PgConnection.open({ ...target, ...over });
  open.push(connection);
  return connection;
}

const one = async (connection: PgConnection, text: string, params: unknown[] = []) =>
  (await connection.run([{ text, params }]))[0];

describe('a pipelined Postgres connection', () => {
  it('answers statements written together in the order they were sent, values as Postgres text', async () => {
    const connection = await connect();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        one(connection, 'select $1::int8 * 2 as twice, null::text as nothing, $2::text as echo', [i, 'é€𝄞']),
      ),
    );
    expect(answers.map((a) => a?.rows)).toEqual(Array.from({ length: 50 }, (_, i) => [[String(i * 2), null, 'é€𝄞']]));
    expect(answers[0]?.fields).toEqual([
      { name: 'twice', dataTypeID: 20 },
      { name: 'nothing', dataTypeID: 25 },
      { name: 'echo', dataTypeID: 25 },
    ]);
    expect(answers[0]).toMatchObject({ command: 'SELECT', rowCount: 1 });
  });

  it('prepares a statement text once and keeps its row description for later executions', async () => {
    const connection = await connect();
    const text = 'select $1::int4 + 1 as next';
    for (let i = 0; i < 3; i++) expect((await one(connection, text, [i]))?.rows).toEqual([[String(i + 1)]]);
    const prepared = await one(connection, 'select count(*) from pg_prepared_statements where statement = $1', [text]);
    expect(prepared?.rows).toEqual([['1']]);
    const again = await one(connection, text, [41]);
    expect(again).toEqual({
      command: 'SELECT',
      rowCount: 1,
      rows: [['42']],
      fields: [{ name: 'next', dataTypeID: 23 }],
    });
  });

  it('fails only the statement in error, with its code and position, and runs the text again once it can', async () => {
    const connection = await connect();
    const [bad, good, badValue] = await Promise.allSettled([
      one(connection, 'select nonsense from'),
      one(connection, 'select 1 as one'),
      one(connection, 'select $1::int4 as n', ['x']),
    ]);
    expect(bad.status).toBe('rejected');
    const error = (bad as PromiseRejectedResult).reason as PgServerError;
    expect(error).toBeInstanceOf(PgServerError);
    expect({ code: error.code, position: error.position }).toEqual({ code: '42601', position: '21' });
    expect(good).toEqual({ status: 'fulfilled', value: expect.objectContaining({ rows: [['1']] }) });
    expect((badValue as PromiseRejectedResult).reason.message).toBe('invalid input syntax for type integer: "x"');
    expect((await one(connection, 'select $1::int4 as n', ['7']))?.rows).toEqual([['7']]);
  });

  it('runs the statements of one run as one transaction, rolled back as a whole on an error', async () => {
    const connection = await connect();
    const table = `t_${randomBytes(4).toString('hex')}`;
    await one(connection, `create table ${table} (n int primary key)`);
    const results = await connection.run([
      { text: `insert into ${table} values ($1)`, params: [1] },
      { text: `select count(*) as n from ${table}`, params: [] },
    ]);
    expect(results.map((r) => [r.command, r.rowCount, r.rows])).toEqual([
      ['INSERT', 1, []],
      ['SELECT', 1, [['1']]],
    ]);
    await expect(
      connection.run([
        { text: `insert into ${table} values ($1)`, params: [2] },
        { text: `insert into ${table} values ($1)`, params: [1] },
      ]),
    ).rejects.toThrow(/duplicate key/);
    expect((await one(connection, `select array_agg(n order by n)::text as ns from ${table}`))?.rows).toEqual([
      ['{1}'],
    ]);
  });

  it('authenticates with SCRAM-SHA-256 when the role has a SCRAM password, and refuses a wrong one', async () => {
    const role = `r_${randomBytes(4).toString('hex')}`;
    await db.sql.query(`set password_encryption = 'scram-sha-256'`);
    await db.sql.query(`create role ${role} login password 'sécret'`);
    await db.sql.query(`grant connect on database ${target.database} to ${role}`);
    const connection = await connect({ user: role, password: 'sécret' });
    expect((await one(connection, 'select current_user as me'))?.rows).toEqual([[role]]);
    await expect(PgConnection.open({ ...target, user: role, password: 'wrong' })).rejects.toThrow(
      /password authentication failed/,
    );
  });

  it('rejects what is in flight when the server ends the connection, and refuses further statements', async () => {
    const connection = await connect();
    const pid = (await one(connection, 'select pg_backend_pid()::text as pid'))?.rows[0]?.[0];
    const slow = one(connection, 'select pg_sleep(5)');
    await db.sql.query('select pg_terminate_backend($1)', [pid]);
    await expect(slow).rejects.toThrow();
    expect(connection.closed).toBe(true);
    await expect(one(connection, 'select 1')).rejects.toThrow();
  });
});
