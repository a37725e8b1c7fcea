-- The schedules with a given expiry (a ScheduleCreate in a contract call looking for an identical schedule:
-- db/queries/evm-schedules.ts schedulesExpiringAt). Not in the reference, which never runs that query over its
-- database; without it each such call reads the whole schedule table.
CREATE INDEX "schedule__expiration_time" ON "schedule" USING btree ("expiration_time");