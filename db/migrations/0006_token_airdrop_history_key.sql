-- A pending airdrop's earlier versions by its key (a contract call at a past block claiming or cancelling it:
-- db/queries/evm-system-tokens.ts pendingAirdropAt). Not in the reference, whose only index on this table is the
-- GiST index of its time range: without this one each such call reads the whole history table.
CREATE INDEX "token_airdrop_history__sender_id" ON "token_airdrop_history" USING btree ("sender_account_id","receiver_account_id","token_id","serial_number");