-- Extensions and domains come first: the tables of the next migration use the domains, and the reference's
-- indexes need btree_gist (gist over bigint and int8range columns) and pg_trgm (token name search).
create extension if not exists btree_gist;
--> statement-breakpoint
create extension if not exists pg_trgm;
--> statement-breakpoint
-- Optional: query statistics when the server ships the module; nothing depends on it.
do $$
begin
  create extension if not exists pg_stat_statements;
exception when others then
  raise notice 'pg_stat_statements not available: %', sqlerrm;
end
$$;
--> statement-breakpoint
create domain entity_id as bigint;
--> statement-breakpoint
create domain entity_num as integer;
--> statement-breakpoint
create domain entity_realm_num as smallint;
--> statement-breakpoint
create domain entity_type_id as character(1);
--> statement-breakpoint
create domain hbar_tinybars as bigint;
--> statement-breakpoint
create domain nanos_timestamp as bigint;
