-- payoutd schema. Every statement is idempotent: this file is applied at every
-- start, and store/migrate.go holds the steps it cannot express (new columns).
-- Money columns are INTEGER minor units; timestamps are INTEGER Unix milliseconds (UTC).
-- livemode separates sandbox (0) from live (1) data on every user-owned row.

-- A user is one account in one mode: the same e-mail has separate sandbox and
-- live users, so sandbox actions (KYC approval, funding) never touch live data.
CREATE TABLE IF NOT EXISTS users (
  id         TEXT PRIMARY KEY,
  email      TEXT NOT NULL,
  livemode   INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (email, livemode)
);

CREATE TABLE IF NOT EXISTS profiles (
  user_id         TEXT PRIMARY KEY REFERENCES users(id),
  email           TEXT NOT NULL,
  name            TEXT NOT NULL DEFAULT '',
  phone           TEXT NOT NULL DEFAULT '',
  country_code    TEXT NOT NULL DEFAULT '',
  home_currency   TEXT NOT NULL DEFAULT '',
  gstin           TEXT NOT NULL DEFAULT '',
  pan             TEXT NOT NULL DEFAULT '',
  lut_number      TEXT NOT NULL DEFAULT '',
  lut_valid_until TEXT NOT NULL DEFAULT '',
  wallet_address  TEXT NOT NULL DEFAULT '',
  wallet_provider TEXT NOT NULL DEFAULT '',
  setup_completed INTEGER NOT NULL DEFAULT 0,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS kyc (
  user_id     TEXT PRIMARY KEY REFERENCES users(id),
  status      TEXT NOT NULL,
  attempts    INTEGER NOT NULL DEFAULT 0,
  session_id  TEXT NOT NULL DEFAULT '',
  reason      TEXT NOT NULL DEFAULT '',
  full_name   TEXT NOT NULL DEFAULT '',
  pan         TEXT NOT NULL DEFAULT '',
  dob         TEXT NOT NULL DEFAULT '',
  updated_at  INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS kyc_sessions (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id),
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS kyc_documents (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES users(id),
  session_id   TEXT NOT NULL,
  filename     TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size         INTEGER NOT NULL,
  sha256       TEXT NOT NULL,
  data         BLOB NOT NULL,
  created_at   INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS vaults (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES users(id),
  livemode     INTEGER NOT NULL,
  name         TEXT NOT NULL,
  vault_type   TEXT NOT NULL,
  currency     TEXT NOT NULL,
  balance      INTEGER NOT NULL CHECK (balance >= 0),
  reserved     INTEGER NOT NULL DEFAULT 0 CHECK (reserved >= 0 AND reserved <= balance),
  address      TEXT NOT NULL,
  key_sealed   BLOB,
  is_default   INTEGER NOT NULL DEFAULT 0,
  created_at   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS vaults_user ON vaults (user_id, created_at);

CREATE TABLE IF NOT EXISTS api_keys (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id),
  name        TEXT NOT NULL DEFAULT '',
  livemode    INTEGER NOT NULL,
  prefix      TEXT NOT NULL,
  hash        BLOB NOT NULL UNIQUE,
  scopes      TEXT NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER,
  revoked_at  INTEGER,
  replaced_by TEXT,
  rate_exempt INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS api_keys_user ON api_keys (user_id, created_at);

-- Ed25519 keys that sign session tokens; the newest signs, all verify.
CREATE TABLE IF NOT EXISTS signing_keys (
  kid         TEXT PRIMARY KEY,
  private_key BLOB NOT NULL,
  created_at  INTEGER NOT NULL
);

CREATE TABLE IF NOT EXISTS idempotency_keys (
  api_key_id   TEXT NOT NULL,
  key          TEXT NOT NULL,
  request_hash BLOB NOT NULL,
  status_code  INTEGER NOT NULL,
  body         BLOB NOT NULL,
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  PRIMARY KEY (api_key_id, key)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS idempotency_expiry ON idempotency_keys (expires_at);

CREATE TABLE IF NOT EXISTS payments (
  id                   TEXT PRIMARY KEY,
  user_id              TEXT NOT NULL REFERENCES users(id),
  livemode             INTEGER NOT NULL,
  txn_id               TEXT NOT NULL,
  type                 TEXT NOT NULL,
  status               TEXT NOT NULL,
  amount               INTEGER NOT NULL CHECK (amount > 0),
  currency             TEXT NOT NULL,
  destination_address  TEXT NOT NULL,
  memo                 TEXT NOT NULL DEFAULT '',
  purpose_code         TEXT NOT NULL DEFAULT '',
  invoice_ref          TEXT NOT NULL DEFAULT '',
  counterparty_name    TEXT NOT NULL DEFAULT '',
  counterparty_country TEXT NOT NULL DEFAULT '',
  counterparty_bank    TEXT NOT NULL DEFAULT '',
  vault_id             TEXT REFERENCES vaults(id),
  reserved             INTEGER NOT NULL DEFAULT 0,
  attempt              INTEGER NOT NULL DEFAULT 0,
  failed_reason        TEXT NOT NULL DEFAULT '',
  settlement_ref       TEXT NOT NULL DEFAULT '',
  settlement_rate      TEXT NOT NULL DEFAULT '',
  amount_inr           INTEGER,
  settled_at           INTEGER,
  created_at           INTEGER NOT NULL,
  updated_at           INTEGER NOT NULL,
  UNIQUE (user_id, txn_id)
);
CREATE INDEX IF NOT EXISTS payments_user_created ON payments (user_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS payments_user_status ON payments (user_id, status, created_at DESC, id DESC);

-- Append-only audit log, one hash chain over the whole file.
CREATE TABLE IF NOT EXISTS audit_log (
  seq           INTEGER PRIMARY KEY AUTOINCREMENT,
  at            INTEGER NOT NULL,
  user_id       TEXT NOT NULL DEFAULT '',
  livemode      INTEGER NOT NULL DEFAULT 0,
  actor         TEXT NOT NULL,
  action        TEXT NOT NULL,
  resource_type TEXT NOT NULL,
  resource_id   TEXT NOT NULL,
  request_id    TEXT NOT NULL DEFAULT '',
  changes       TEXT NOT NULL DEFAULT '{}',
  prev_hash     TEXT NOT NULL,
  hash          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS audit_user_at ON audit_log (user_id, at);
CREATE INDEX IF NOT EXISTS audit_resource ON audit_log (resource_id);
CREATE TRIGGER IF NOT EXISTS audit_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS audit_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only'); END;

-- Browser sessions of the hosted KYC page (scs sqlite3store layout).
CREATE TABLE IF NOT EXISTS sessions (
  token  TEXT PRIMARY KEY,
  data   BLOB NOT NULL,
  expiry REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_expiry_idx ON sessions (expiry);

-- Events: written in the same transaction as the state change that causes
-- them; webhooks deliver them, GET /events replays them.
CREATE TABLE IF NOT EXISTS events (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL,
  livemode    INTEGER NOT NULL,
  type        TEXT NOT NULL,
  resource_id TEXT NOT NULL DEFAULT '',
  data        TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS events_user ON events (user_id, id);
CREATE INDEX IF NOT EXISTS events_user_type ON events (user_id, type, id);
