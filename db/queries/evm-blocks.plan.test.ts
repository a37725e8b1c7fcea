import { describe, expect, it } from 'vitest';
import { explainGenericQueries, planNodes } from '../../test/harness/explain.ts';
import { insertHashedRecordFiles, usePlanDatabase } from '../../test/harness/plan-database.ts';
import { type EvmBlockKey, evmBlock } from './evm-blocks.ts';

const db = usePlanDatabase((sql) => insertHashedRecordFiles(sql, 100_000), 120_000);

describe('query plan of the block a call runs on', () => {
  it.each<[string, () => Promise<EvmBlockKey>, string]>([
    ['latest', async () => ({ latest: true }), 'record_file_pkey'],
    ['earliest', async () => ({ earliest: true }), 'record_file__index'],
    ['a number', async () => ({ number: 4242n }), 'record_file__index'],
    ['a 32-byte hash', async () => ({ hashPrefix: await hashOf(4242, 64) }), 'record_file__hash'],
    ['a 48-byte hash', async () => ({ hashPrefix: await hashOf(4242, 96) }), 'record_file__hash'],
  ])('reads one row of an index for %s', async (_name, key, index) => {
    const resolved = await key();
    const [plan] = await explainGenericQueries(db.sql, (database) => evmBlock(database, resolved));
    const scans = planNodes(plan ?? { 'Node Type': 'none' }).filter((node) => node['Relation Name'] === 'record_file');
    expect(scans.map((node) => [node['Node Type'].replace('Backward ', ''), node['Index Name']])).toEqual([
      ['Index Scan', index],
    ]);
    expect(scans[0]?.['Actual Rows']).toBe(1);
  });
});

async function hashOf(index: number, length: number): Promise<string> {
  const { rows } = await db.sql.query(`select hash from record_file where index = $1`, [index]);
  return String(rows[0].hash).slice(0, length);
}
