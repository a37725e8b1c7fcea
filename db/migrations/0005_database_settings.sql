-- Settings the API's query plans depend on, applied to the database itself so that every server it runs on (the
-- embedded Postgres, Neon) plans alike. New sessions read them; the migrator's own session does not need them.
-- random_page_cost 1.1 (ADR 0011): the data is on SSD or in the page cache, where a random page read costs about what
-- a sequential one does; with the default 4 the account pages lose their ordered index walk under a limit.
do $$
begin
  execute format('alter database %I set random_page_cost = 1.1', current_database());
end
$$;
