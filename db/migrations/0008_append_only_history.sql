-- Not in the reference. A row here says that the database's history is written by edge-mirror's ingest alone, which
-- appends each record file's rows in one transaction after the previous file's and never rewrites a committed
-- file's rows (the reference importer's async migrations do). The Worker marks an answer final, cacheable for good,
-- only while this row exists (docs/adr/0045-final-answers-at-the-edge.md); the ingest writes it when it starts.
CREATE TABLE "append_only_history" ("writer" text PRIMARY KEY NOT NULL);
