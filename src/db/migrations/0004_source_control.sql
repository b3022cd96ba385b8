-- Push ingest for token-carrying deliveries (scm-b's verbatim token, scm-c's basic credential,
-- scm-d data-center's bearer): the delivery names no account we could look up before checking
-- its identity, so the connection is found by the SHA-256 of the presented secret (like API
-- tokens), then the sealed secret is opened and compared in constant time.
ALTER TABLE source_control_connections ADD COLUMN webhook_token_hash bytea;
CREATE INDEX source_control_connections_by_webhook_token
  ON source_control_connections (provider, webhook_token_hash) WHERE webhook_token_hash IS NOT NULL;

-- An scm-a installation belongs to one account: a second tenant cannot claim it by guessing its
-- id. Enforced by the database (across tenants, race-free); the install route answers 409.
CREATE UNIQUE INDEX source_control_connections_one_installation
  ON source_control_connections (external_id) WHERE provider = 'scm-a';
