-- The reference's indexes that drizzle cannot declare: gist, gin and hash indexes, indexes on expressions,
-- partial indexes and collations. Definitions are the reference's, verbatim.
CREATE INDEX entity__alias ON entity USING btree (alias) WHERE (alias IS NOT NULL);
--> statement-breakpoint
CREATE INDEX entity__evm_address ON entity USING btree (evm_address) WHERE (evm_address IS NOT NULL);
--> statement-breakpoint
CREATE INDEX entity__public_key_type ON entity USING btree (public_key, type) WHERE (public_key IS NOT NULL);
--> statement-breakpoint
CREATE INDEX entity_history__alias ON entity_history USING btree (alias) WHERE (alias IS NOT NULL);
--> statement-breakpoint
CREATE INDEX entity_history__evm_address ON entity_history USING btree (evm_address) WHERE (evm_address IS NOT NULL);
--> statement-breakpoint
CREATE INDEX entity_history__id_lower_timestamp ON entity_history USING btree (id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX entity_history__timestamp_range ON entity_history USING gist (timestamp_range);
--> statement-breakpoint
CREATE INDEX crypto_transfer__entity_id_consensus_timestamp ON crypto_transfer USING btree (entity_id, consensus_timestamp) WHERE ((entity_id)::bigint <> 98);
--> statement-breakpoint
CREATE INDEX token__name ON token USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX token_history__timestamp_range ON token_history USING gist (timestamp_range);
--> statement-breakpoint
CREATE INDEX token_history__token_id_timestamp_range ON token_history USING btree (token_id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX token_account_history__account_token_lower_timestamp ON token_account_history USING btree (account_id, token_id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX token_account_history__timestamp_range ON token_account_history USING gist (timestamp_range);
--> statement-breakpoint
CREATE INDEX nft__allowance ON nft USING btree (account_id, spender, token_id, serial_number) WHERE ((account_id IS NOT NULL) AND (spender IS NOT NULL));
--> statement-breakpoint
CREATE INDEX nft_history__account_timestamp_range ON nft_history USING gist (account_id, timestamp_range);
--> statement-breakpoint
CREATE INDEX nft_history__token_serial_lower_timestamp ON nft_history USING btree (token_id, serial_number, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX custom_fee_history__timestamp_range ON custom_fee_history USING gist (timestamp_range);
--> statement-breakpoint
CREATE INDEX custom_fee_history__token_id_timestamp_range ON custom_fee_history USING btree (entity_id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX token_airdrop_history__timestamp_range ON token_airdrop_history USING gist (timestamp_range);
--> statement-breakpoint
CREATE INDEX crypto_allowance_history__timestamp_range ON crypto_allowance_history USING gist (timestamp_range);
--> statement-breakpoint
CREATE INDEX crypto_allowance_history_owner_spender_lower_timestamp ON crypto_allowance_history USING btree (owner, spender, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX nft_allowance_history__owner_spender_token_lower_timestamp ON nft_allowance_history USING btree (owner, spender, token_id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX nft_allowance_history__timestamp_range ON nft_allowance_history USING gist (timestamp_range);
--> statement-breakpoint
CREATE INDEX token_allowance_history__owner_spender_token_lower_timestamp ON token_allowance_history USING btree (owner, spender, token_id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX token_allowance_history__timestamp_range ON token_allowance_history USING gist (timestamp_range);
--> statement-breakpoint
CREATE INDEX contract_transaction_hash__hash ON contract_transaction_hash USING hash (hash);
--> statement-breakpoint
CREATE INDEX topic_history__id_lower_timestamp_range ON topic_history USING btree (id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX topic_history__timestamp_range ON topic_history USING gist (timestamp_range);
--> statement-breakpoint
CREATE INDEX record_file__hash ON record_file USING btree (hash COLLATE "C");
--> statement-breakpoint
CREATE INDEX node_history__node_id_lower_timestamp ON node_history USING btree (node_id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX registered_node__type ON registered_node USING gin (type) WHERE (deleted IS FALSE);
--> statement-breakpoint
CREATE INDEX registered_node_history__node_id_lower_timestamp ON registered_node_history USING btree (registered_node_id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX entity_stake_history__id_lower_timestamp ON entity_stake_history USING btree (id, lower(timestamp_range));
--> statement-breakpoint
CREATE INDEX entity_stake_history__timestamp_range ON entity_stake_history USING gist (timestamp_range);
