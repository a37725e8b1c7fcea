/**
 * What identifies a database's contents, for the Worker's edge cache key (`DATABASE_ID`): where it is served, the
 * database's oid, and the cluster's system identifier, which a new `initdb` changes. The local cache outlives the
 * mirror's processes, so a mirror restarted on another database (or on a re-created `.data/pg` at the same URL)
 * must not find the old one's answers under the same keys.
 */
import { createHash } from 'node:crypto';
import pg from 'pg';

export async function databaseId(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ oid: string }>(
      'select oid::text from pg_database where datname = current_database()',
    );
    // Reading the system identifier needs a superuser (or pg_monitor); without it the URL and the oid still tell
    // databases apart, though not a re-created cluster at the same URL.
    const system = await client
      .query<{ id: string }>('select system_identifier::text as id from pg_control_system()')
      .then((result) => result.rows[0]?.id ?? '')
      .catch(() => '');
    const target = new URL(url);
    return createHash('sha256')
      .update([target.host, target.pathname, rows[0]?.oid ?? '', system].join('/'))
      .digest('hex')
      .slice(0, 16);
  } finally {
    await client.end();
  }
}
