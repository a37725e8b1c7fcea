-- An account's token balances inside a time window (the balance snapshot of /balances?timestamp= and
-- /accounts/{id}?timestamp=): account_id, then the time range. Not in the reference. Without it, Postgres 18 costs
-- the primary key (account_id, token_id, consensus_timestamp) as a skip scan over every token id for such a range
-- and walks token_balance__token_account_timestamp instead, one index search per token id in the system
-- (docs/performance.md, "SQL fixes"). Created on the partitioned parent, so every partition gets it.
create index token_balance__account_timestamp on token_balance (account_id, consensus_timestamp);
