-- The three partitioned tables of the reference schema. Their drizzle definitions (db/schema) describe the same
-- columns and keys for queries; drizzle cannot declare partitioning, so they are created here.
-- Rows are always written through the parent tables.

-- Balance snapshots: 10-year range partitions over the nanosecond timestamps from 1970 to 2100, and a default
-- partition for anything outside them, so that every timestamp can be inserted.
create table account_balance (
  consensus_timestamp nanos_timestamp not null,
  balance hbar_tinybars not null,
  account_id entity_id not null,
  constraint account_balance_pkey primary key (account_id, consensus_timestamp)
) partition by range (consensus_timestamp);
--> statement-breakpoint
create table token_balance (
  consensus_timestamp bigint not null,
  account_id entity_id not null,
  balance bigint not null,
  token_id entity_id not null,
  constraint token_balance_pkey primary key (account_id, token_id, consensus_timestamp)
) partition by range (consensus_timestamp);
--> statement-breakpoint
create index token_balance__token_account_timestamp on token_balance (token_id, account_id, consensus_timestamp);
--> statement-breakpoint
do $$
declare
  parent text;
  decade integer;
begin
  foreach parent in array array['account_balance', 'token_balance'] loop
    for decade in 1970..2090 by 10 loop
      execute format(
        'create table %I partition of %I for values from (%s) to (%s)',
        parent || '_p' || decade,
        parent,
        extract(epoch from make_date(decade, 1, 1)::timestamp)::bigint * 1000000000,
        extract(epoch from make_date(decade + 10, 1, 1)::timestamp)::bigint * 1000000000
      );
    end loop;
    execute format('create table %I partition of %I default', parent || '_default', parent);
  end loop;
end
$$;
--> statement-breakpoint
-- Transaction hashes: the 48-byte SHA-384 is split into hash (the first 32 bytes) and hash_suffix (the last 16);
-- 32 list partitions transaction_hash_00..transaction_hash_31 on the first byte of the hash.
create table transaction_hash (
  consensus_timestamp bigint not null,
  hash bytea not null,
  payer_account_id bigint,
  hash_suffix bytea
) partition by list (mod(get_byte(hash, 0), 32));
--> statement-breakpoint
do $$
begin
  for shard in 0..31 loop
    execute format(
      'create table %I partition of transaction_hash for values in (%s)',
      'transaction_hash_' || lpad(shard::text, 2, '0'),
      shard
    );
  end loop;
end
$$;
--> statement-breakpoint
create index transaction_hash__hash on transaction_hash using hash (substring(hash from 1 for 32));
--> statement-breakpoint
-- Looks a transaction up by the first 32 bytes of its hash and returns the full 48-byte hash. It reads only the
-- partition that can hold the hash (dynamic SQL: the planner cannot prune on a function argument).
create function get_transaction_info_by_hash(bytea)
  returns table (consensus_timestamp bigint, hash bytea, payer_account_id bigint)
  language plpgsql
  stable
  strict
as $$
begin
  return query execute format(
    'select consensus_timestamp, hash || coalesce(hash_suffix, ''''::bytea), payer_account_id'
    ' from %I where substring(hash from 1 for 32) = $1',
    'transaction_hash_' || lpad(mod(get_byte($1, 0), 32)::text, 2, '0')
  ) using $1;
end
$$;
