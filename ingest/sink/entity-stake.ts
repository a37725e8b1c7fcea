/**
 * `entity_stake`: each staking account's pending reward and stake at the start of the staking period, as the
 * reference importer computes them after a NodeStakeUpdate (its EntityStakeRepository), one ending staking period at
 * a time until the staking reward account's row covers the latest one:
 *
 * - the period that ends is the first NodeStakeUpdate after the one the staking reward account's row ends with (on
 *   an empty table: the first after that account was created); its timestamp T and epoch day D;
 * - the state at T: every account or contract, not deleted, staked to an account or (not declining rewards) to a
 *   node, as its row valid at T says, and the staking reward account; its balance is the latest `account_balance`
 *   snapshot of the month before (the treasury's latest before T, within 31 days; none: no update), plus the
 *   crypto transfers since;
 * - for every such entity staked to a node (and the staking reward account): `staked_to_me` the balances staked
 *   to it, `stake_total_start` its balance plus those (0 unstaked), `staked_node_id_start` its node, and the
 *   pending reward: 0 when it was not staked to a node at the previous period's start or changed its stake within
 *   the ending period; the previous reward when the update names no rate for that node; else the previous (none when
 *   it changed its stake the period before) plus the node's reward rate times the whole hbars it staked at the
 *   previous start, less the rate of 365 days before when its stake is older than that.
 *
 * The replaced row goes to `entity_stake_history`, its range closed at T.
 */
import type pg from 'pg';
import { encodeEntityId } from '../decode/ids.ts';

const STAKING_REWARD_ACCOUNT = encodeEntityId(0n, 0n, 800n);
const TREASURY_ACCOUNT = encodeEntityId(0n, 0n, 2n);
const MONTH_NS = 31n * 24n * 3600n * 1_000_000_000n;
const TINYBARS_PER_HBAR = 100_000_000n;
const REWARD_DAYS = 365;

const NEXT_PERIOD = `
  with ending_period as (
    select epoch_day, consensus_timestamp
      from node_stake
     where epoch_day >= coalesce(
             (select end_stake_period + 1 from entity_stake where id = $1),
             (select epoch_day from node_stake
               where consensus_timestamp > (select min(lower(timestamp_range))
                                              from (select timestamp_range from entity where id = $1
                                                    union all
                                                    select timestamp_range from entity_history where id = $1) created)
               order by consensus_timestamp
               limit 1))
     order by consensus_timestamp
     limit 1
  ), snapshot as (
    select max(b.consensus_timestamp) as at
      from account_balance b, ending_period p
     where b.account_id = $2 and b.consensus_timestamp > p.consensus_timestamp - $3
       and b.consensus_timestamp <= p.consensus_timestamp
  ), staking as (
    select e.id, e.staked_account_id, e.staked_node_id, e.stake_period_start
      from entity e, ending_period p
     where e.id = $1
        or (e.deleted is not true and e.type in ('ACCOUNT', 'CONTRACT') and e.timestamp_range @> p.consensus_timestamp
            and (e.staked_account_id <> 0 or (e.decline_reward is false and e.staked_node_id <> -1)))
    union all
    select * from (
      select distinct on (h.id) h.id, h.staked_account_id, h.staked_node_id, h.stake_period_start
        from entity_history h, ending_period p
       where h.id <> $1 and h.deleted is not true and h.type in ('ACCOUNT', 'CONTRACT')
         and h.timestamp_range @> p.consensus_timestamp
         and (h.staked_account_id <> 0 or (h.decline_reward is false and h.staked_node_id <> -1))
       order by h.id, h.timestamp_range desc) as history
  ), state_start as (
    select s.id,
           coalesce(s.staked_account_id, 0) as staked_account_id,
           coalesce(s.staked_node_id, -1) as staked_node_id,
           coalesce(s.stake_period_start, -1) as stake_period_start,
           coalesce(b.balance, 0) + coalesce(c.change, 0) as balance
      from staking s
      left join (select distinct on (b.account_id) b.account_id, b.balance
                   from account_balance b, snapshot
                  where b.consensus_timestamp > snapshot.at - $3 and b.consensus_timestamp <= snapshot.at
                  order by b.account_id, b.consensus_timestamp desc) b on b.account_id = s.id
      left join (select t.entity_id, sum(t.amount) as change
                   from crypto_transfer t, snapshot, ending_period p
                  where t.consensus_timestamp > snapshot.at and t.consensus_timestamp <= p.consensus_timestamp
                  group by t.entity_id) c on c.entity_id = s.id
     where (select at from snapshot) is not null
  ), staked_to as (
    select staked_account_id as id, sum(balance) as staked_to_me
      from state_start
     where staked_account_id <> 0
     group by staked_account_id
  ), ending_rate as (
    select n.node_id, n.reward_rate
      from node_stake n, ending_period p
     where n.consensus_timestamp = p.consensus_timestamp
  ), forfeited_rate as (
    select distinct on (n.node_id) n.node_id, n.reward_rate
      from node_stake n, ending_period p
     where n.epoch_day = p.epoch_day - $5
     order by n.node_id, n.consensus_timestamp
  ), next_stake as (
    select p.epoch_day as end_stake_period,
           s.id,
           case
             when coalesce(es.staked_node_id_start, -1) = -1 then 0
             when r.reward_rate is null then es.pending_reward
             when s.stake_period_start > p.epoch_day - 1 then 0
             when s.stake_period_start = p.epoch_day - 1 then r.reward_rate * (es.stake_total_start / $4)
             when p.epoch_day - s.stake_period_start > $5
               then es.pending_reward + (r.reward_rate - coalesce(f.reward_rate, 0)) * (es.stake_total_start / $4)
             else es.pending_reward + r.reward_rate * (es.stake_total_start / $4)
           end as pending_reward,
           s.staked_node_id as staked_node_id_start,
           coalesce(x.staked_to_me, 0) as staked_to_me,
           case when s.staked_node_id = -1 then 0 else s.balance + coalesce(x.staked_to_me, 0) end as stake_total_start,
           int8range(p.consensus_timestamp, null) as timestamp_range
      from state_start s
      cross join ending_period p
      left join entity_stake es on es.id = s.id
      left join ending_rate r on r.node_id = es.staked_node_id_start
      left join forfeited_rate f on f.node_id = es.staked_node_id_start
      left join staked_to x on x.id = s.id
     where s.id = $1 or s.staked_node_id <> -1
  ), closed as (
    insert into entity_stake_history
      (end_stake_period, id, pending_reward, staked_node_id_start, staked_to_me, stake_total_start, timestamp_range)
    select es.end_stake_period, es.id, es.pending_reward, es.staked_node_id_start, es.staked_to_me,
           es.stake_total_start, int8range(lower(es.timestamp_range), lower(n.timestamp_range))
      from entity_stake es
      join next_stake n on n.id = es.id
  )
  insert into entity_stake
    (end_stake_period, id, pending_reward, staked_node_id_start, staked_to_me, stake_total_start, timestamp_range)
  select end_stake_period, id, pending_reward, staked_node_id_start, staked_to_me, stake_total_start, timestamp_range
    from next_stake
  on conflict (id) do update set
    end_stake_period = excluded.end_stake_period,
    pending_reward = excluded.pending_reward,
    staked_node_id_start = excluded.staked_node_id_start,
    staked_to_me = excluded.staked_to_me,
    stake_total_start = excluded.stake_total_start,
    timestamp_range = excluded.timestamp_range
  returning id`;

/**
 * Brings `entity_stake` up to the latest NodeStakeUpdate, a period per statement; stops at a period it cannot
 * compute (no balance snapshot in the month before it), as the importer does. Returns the periods computed.
 */
export async function updateEntityStakes(client: pg.ClientBase): Promise<number> {
  const params = [STAKING_REWARD_ACCOUNT, TREASURY_ACCOUNT, MONTH_NS, TINYBARS_PER_HBAR, REWARD_DAYS].map(String);
  for (let periods = 0; ; periods++) {
    const { rows } = await client.query<{ id: string }>(NEXT_PERIOD, params);
    if (!rows.some((row) => BigInt(row.id) === STAKING_REWARD_ACCOUNT)) return periods;
  }
}
