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
  updated_at      INTEGER NOT NULL,
  address         TEXT NOT NULL DEFAULT '', -- postal address, printed on FIRAs (version 5)
  -- 1 when the user supplies from a special-category State, where the GST
  -- registration threshold is ₹10 lakh instead of ₹20 lakh (version 7).
  gst_special_category INTEGER NOT NULL DEFAULT 0,
  -- The GST state code (01-38, 97) of the principal place of business,
  -- '' when not given: a GSTIN's first two digits take its place (version 11).
  state_code      TEXT NOT NULL DEFAULT '',
  -- The date GST registration took effect, YYYY-MM-DD or '' (version 11).
  gst_registered_from TEXT NOT NULL DEFAULT ''
);

-- Letters of Undertaking (Form GST RFD-11) as furnished on the GST portal:
-- one per financial year in use, with the ARN the portal generated and the
-- date it was furnished (docs/tax.md, "LUTs").
CREATE TABLE IF NOT EXISTS luts (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL,
  livemode     INTEGER NOT NULL,
  arn          TEXT NOT NULL,
  fy           TEXT NOT NULL,     -- the financial year it covers, YYYY-YY
  furnished_on TEXT NOT NULL,     -- YYYY-MM-DD, IST
  created_at   INTEGER NOT NULL,
  withdrawn_at INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS luts_user_fy ON luts (user_id, fy) WHERE withdrawn_at IS NULL;

-- Export invoices (CGST Rules r.46) as issued: the supplier and recipient
-- are frozen in the row, the number is the next of the user's series for
-- the financial year (r.46(b)), the INR value is at the rate of the invoice
-- date (r.34), and lut_arn is the LUT it was issued under ('' = with IGST).
CREATE TABLE IF NOT EXISTS invoices (
  id                TEXT PRIMARY KEY,
  user_id           TEXT NOT NULL,
  livemode          INTEGER NOT NULL,
  fy                TEXT NOT NULL,
  seq               INTEGER NOT NULL,
  number            TEXT NOT NULL,
  date              TEXT NOT NULL,    -- YYYY-MM-DD, IST
  currency          TEXT NOT NULL,
  lines             TEXT NOT NULL,    -- JSON: [{description, sac, amount (minor units)}]
  total             INTEGER NOT NULL, -- minor units of currency
  rate              TEXT NOT NULL,    -- INR per unit of currency
  rate_date         TEXT NOT NULL,
  rate_basis        TEXT NOT NULL,    -- given, recorded or table
  value_inr         INTEGER NOT NULL, -- paise
  igst              INTEGER NOT NULL, -- paise; 0 under a LUT
  lut_arn           TEXT NOT NULL,
  supplier_name     TEXT NOT NULL,
  supplier_address  TEXT NOT NULL,
  supplier_gstin    TEXT NOT NULL,
  supplier_state    TEXT NOT NULL,
  recipient_name    TEXT NOT NULL,
  recipient_address TEXT NOT NULL,
  recipient_country TEXT NOT NULL,
  client_id         TEXT NOT NULL DEFAULT '',
  created_at        INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS invoices_number ON invoices (user_id, fy, seq);
CREATE INDEX IF NOT EXISTS invoices_user_date ON invoices (user_id, date);
-- The LUT invoices rule 96A's watch job reads, every user's, by date.
CREATE INDEX IF NOT EXISTS invoices_lut_date ON invoices (date) WHERE lut_arn != '';

-- Rule 96A's flag of a LUT invoice not fully paid in foreign exchange,
-- written with its invoice.realisation_due event by the realisation_watch
-- job: one row per invoice, so the event is emitted once. The figures are
-- those the event announced (paise).
CREATE TABLE IF NOT EXISTS invoice_realisation_flags (
  invoice_id    TEXT PRIMARY KEY REFERENCES invoices(id),
  user_id       TEXT NOT NULL,
  flagged_on    TEXT NOT NULL,    -- YYYY-MM-DD, IST
  taxable_value INTEGER NOT NULL,
  igst          INTEGER NOT NULL,
  interest      INTEGER NOT NULL,
  created_at    INTEGER NOT NULL
);

-- Credit notes (r.53) against an invoice, in their own series per year.
CREATE TABLE IF NOT EXISTS credit_notes (
  id         TEXT PRIMARY KEY,
  invoice_id TEXT NOT NULL REFERENCES invoices(id),
  user_id    TEXT NOT NULL,
  livemode   INTEGER NOT NULL,
  fy         TEXT NOT NULL,
  seq        INTEGER NOT NULL,
  number     TEXT NOT NULL,
  date       TEXT NOT NULL,
  amount     INTEGER NOT NULL, -- minor units of the invoice's currency
  value_inr  INTEGER NOT NULL, -- paise, at the invoice's rate
  igst       INTEGER NOT NULL, -- paise
  reason     TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS credit_notes_number ON credit_notes (user_id, fy, seq);
CREATE INDEX IF NOT EXISTS credit_notes_invoice ON credit_notes (invoice_id);
CREATE INDEX IF NOT EXISTS credit_notes_user_date ON credit_notes (user_id, date);

-- The invoice a payout collects (initiate's invoiceId).
CREATE TABLE IF NOT EXISTS payment_invoices (
  payment_id TEXT PRIMARY KEY,
  invoice_id TEXT NOT NULL REFERENCES invoices(id),
  user_id    TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS payment_invoices_invoice ON payment_invoices (invoice_id);
-- A user's links, for the GST figures' receipts that collect an invoice
-- (store.LinkedReceipts): few beside the user's receipts.
CREATE INDEX IF NOT EXISTS payment_invoices_user ON payment_invoices (user_id);

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
-- The sandbox reviewer looks for records waiting in DOCS_SUBMITTED/UNDER_REVIEW.
CREATE INDEX IF NOT EXISTS kyc_status ON kyc (status, updated_at);

-- Hosted verification sessions. Only the newest session of a
-- user (kyc.session_id) is usable; claimed_at binds it to the first browser
-- that opens it; identity_at and submitted_at record the steps done in it.
CREATE TABLE IF NOT EXISTS kyc_sessions (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES users(id),
  created_at   INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL,
  claimed_at   INTEGER,
  identity_at  INTEGER,
  submitted_at INTEGER
);

CREATE TABLE IF NOT EXISTS kyc_documents (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES users(id),
  session_id   TEXT NOT NULL,
  filename     TEXT NOT NULL,
  content_type TEXT NOT NULL,
  size         INTEGER NOT NULL,
  kind         TEXT NOT NULL DEFAULT '',
  sha256       TEXT NOT NULL, -- of the plaintext file
  data         BLOB NOT NULL, -- sealed with the master key (AES-GCM, ad = id)
  created_at   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS kyc_documents_user ON kyc_documents (user_id, created_at);

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
-- A number every change of api_keys moves on, in the changing transaction
-- whoever makes it, so a server that remembers keys (store/apikey_cache.go)
-- learns within a second of a key revoked by another process.
CREATE TABLE IF NOT EXISTS api_key_generation (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  n  INTEGER NOT NULL
);
CREATE TRIGGER IF NOT EXISTS api_keys_generation_insert AFTER INSERT ON api_keys
BEGIN
  INSERT INTO api_key_generation (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS api_keys_generation_update AFTER UPDATE ON api_keys
BEGIN
  INSERT INTO api_key_generation (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = n + 1;
END;
CREATE TRIGGER IF NOT EXISTS api_keys_generation_delete AFTER DELETE ON api_keys
BEGIN
  INSERT INTO api_key_generation (id, n) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET n = n + 1;
END;
-- One row that /readyz rewrites, with a page-sized pad, after a write
-- failed for lack of space: its commit succeeding says writes work again.
CREATE TABLE IF NOT EXISTS storage_probe (
  id  INTEGER PRIMARY KEY CHECK (id = 1),
  pad BLOB,
  at  INTEGER NOT NULL
);

-- Idempotency lookups follow a rotated key back to the keys it replaced.
CREATE INDEX IF NOT EXISTS api_keys_replaced_by ON api_keys (replaced_by) WHERE replaced_by IS NOT NULL;

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
  -- The invoice's date (YYYY-MM-DD), '' when not given: GST time of supply
  -- (docs/tax.md; version 5).
  invoice_date         TEXT NOT NULL DEFAULT '',
  -- The invoice's value in the payment's currency when it differs from the
  -- amount paid, 0 when not given: the GST taxable value (version 7).
  invoice_amount       INTEGER NOT NULL DEFAULT 0,
  metadata             TEXT NOT NULL DEFAULT '',  -- the client's key/value pairs as a JSON object; '' for none
  -- 1 at initiate, +1 at every change of the payment (version 6).
  version              INTEGER NOT NULL DEFAULT 1,
  review_reason        TEXT NOT NULL DEFAULT '',  -- why compliance holds it, while MANUAL_REVIEW (version 6)
  -- The memo type given at initiate ('id', 'text'; '' lets the memo decide;
  -- version 8).
  memo_type            TEXT NOT NULL DEFAULT '',
  -- Why the payout waits for a person (its job gave up), and since when;
  -- every move of the payout clears both (version 8).
  attention            TEXT NOT NULL DEFAULT '',
  attention_at         INTEGER,
  -- The client (clients.id) the payout was made for, '' when none was
  -- named (version 11).
  client_id            TEXT NOT NULL DEFAULT '',
  UNIQUE (user_id, txn_id)
);
CREATE INDEX IF NOT EXISTS payments_user_created ON payments (user_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS payments_user_status ON payments (user_id, status, created_at DESC, id DESC);
-- The console's payouts sorted by amount, and a client's payouts; the
-- second holds only payouts that name a client.
CREATE INDEX IF NOT EXISTS payments_user_amount ON payments (user_id, amount DESC, id DESC);
CREATE INDEX IF NOT EXISTS payments_user_client ON payments (user_id, client_id, created_at DESC, id DESC) WHERE client_id != '';
-- Every run of three characters of each payout's client name and invoice
-- reference, case folded: a search of three or more characters reads only
-- the payouts holding all of its runs (PaymentFilter.where), never every
-- payout of the user. It stores no text of its own (content is payments)
-- and no sizes (nothing ranks). A payout's row is added with its batch's
-- rows just before COMMIT (store/log_rows.go): added by a trigger, each
-- INSERT INTO payments would write the index out on its own. 'rebuild'
-- refills it from payments; the trigger below keeps what it indexed true.
CREATE VIRTUAL TABLE IF NOT EXISTS payment_search USING fts5(
  counterparty_name, invoice_ref, content = 'payments', columnsize = 0, tokenize = 'trigram');
-- FTS5 left to itself merges its segments inside a COMMIT, a few hundred
-- pages at once after every 64 it writes: 17-34 ms during which the one
-- writer does nothing else. Instead each batch that adds rows merges at
-- most a few pages (store/log_rows.go), which keeps the index as merged.
INSERT INTO payment_search (payment_search, rank) VALUES ('automerge', 0);
CREATE TRIGGER IF NOT EXISTS payments_search_text_kept BEFORE UPDATE OF counterparty_name, invoice_ref ON payments
WHEN new.counterparty_name IS NOT old.counterparty_name OR new.invoice_ref IS NOT old.invoice_ref
BEGIN SELECT RAISE(ABORT, 'a payout''s client name and invoice reference stay as recorded (payment_search)'); END;

-- The people and companies a user is paid by: chosen when paying, their
-- name and country become the payout's counterparty (the FIRA's remitter).
CREATE TABLE IF NOT EXISTS clients (
  id           TEXT PRIMARY KEY,
  user_id      TEXT NOT NULL REFERENCES users(id),
  livemode     INTEGER NOT NULL,
  name         TEXT NOT NULL,
  country      TEXT NOT NULL DEFAULT '',
  address      TEXT NOT NULL DEFAULT '',
  email        TEXT NOT NULL DEFAULT '',
  purpose_code TEXT NOT NULL DEFAULT '',
  currency     TEXT NOT NULL DEFAULT '',  -- the currency they usually pay in
  notes        TEXT NOT NULL DEFAULT '',
  created_at   INTEGER NOT NULL,
  updated_at   INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS clients_user_name ON clients (user_id, name COLLATE NOCASE, id);
-- Older files carry two partial indexes of payouts in flight; nothing reads
-- them, and each cost an insert and a delete on every payout.
DROP INDEX IF EXISTS payments_in_flight;
DROP INDEX IF EXISTS payments_owed;

-- Append-only audit log, one hash chain over the whole file.
CREATE TABLE IF NOT EXISTS audit_log (
  seq           INTEGER PRIMARY KEY,   -- assigned as previous + 1; rows are never deleted
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

-- One-time sign-in links of the console (payoutd console-link): only the
-- SHA-256 of the token is kept; a link works once, within its expiry.
CREATE TABLE IF NOT EXISTS console_links (
  token_hash BLOB PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users(id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
);

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
-- Early files indexed events by (user_id, id); the log pages by rowid
-- (events_user_seq below), so those indexes only cost writes.
DROP INDEX IF EXISTS events_user;
DROP INDEX IF EXISTS events_user_type;

-- Webhooks (docs/webhooks.md). Endpoints belong to one user in
-- one mode; a deleted endpoint takes its secrets and delivery log with it.
CREATE TABLE IF NOT EXISTS webhook_endpoints (
  id              TEXT PRIMARY KEY,
  user_id         TEXT NOT NULL REFERENCES users(id),
  livemode        INTEGER NOT NULL,
  url             TEXT NOT NULL,
  description     TEXT NOT NULL DEFAULT '',
  event_types     TEXT NOT NULL DEFAULT '', -- space-separated; '' = every type
  status          TEXT NOT NULL CHECK (status IN ('enabled', 'disabled')),
  disabled_reason TEXT NOT NULL DEFAULT '',
  disabled_at     INTEGER,
  created_at      INTEGER NOT NULL,
  updated_at      INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS webhook_endpoints_user ON webhook_endpoints (user_id, created_at, id);

-- Signing secrets, sealed with the master key. The current secret has no
-- expiry; a rotated one keeps signing until expires_at.
CREATE TABLE IF NOT EXISTS webhook_secrets (
  id          TEXT PRIMARY KEY,
  endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  sealed      BLOB NOT NULL,
  created_at  INTEGER NOT NULL,
  expires_at  INTEGER
);
CREATE INDEX IF NOT EXISTS webhook_secrets_endpoint ON webhook_secrets (endpoint_id, created_at DESC);

-- One row per delivery attempt (endpoint × event × attempt number).
CREATE TABLE IF NOT EXISTS webhook_deliveries (
  id            TEXT PRIMARY KEY,
  endpoint_id   TEXT NOT NULL REFERENCES webhook_endpoints(id) ON DELETE CASCADE,
  event_id      TEXT NOT NULL,
  event_type    TEXT NOT NULL,
  attempt       INTEGER NOT NULL,
  status        TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
  response_code INTEGER,
  duration_ms   INTEGER NOT NULL,
  error         TEXT NOT NULL DEFAULT '',
  next_retry_at INTEGER,
  created_at    INTEGER NOT NULL,
  UNIQUE (endpoint_id, event_id, attempt)
);
CREATE INDEX IF NOT EXISTS webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);

-- GET /events pages in insertion (rowid) order: ids sort by millisecond, so
-- two events of the same millisecond could otherwise swap and an "after"
-- cursor could skip one. An index on (user_id) is ordered (user_id, rowid).
CREATE INDEX IF NOT EXISTS events_user_seq ON events (user_id);
CREATE INDEX IF NOT EXISTS events_user_type_seq ON events (user_id, type);

-- Double-entry ledger. Every journal transaction's postings sum to zero per
-- currency (checked at write time and by `payoutd check`); an account's
-- balance column always equals the sum of its postings.
CREATE TABLE IF NOT EXISTS ledger_accounts (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL DEFAULT '',  -- '' for system accounts
  livemode   INTEGER NOT NULL,
  kind       TEXT NOT NULL,             -- vault, settlement, tax_reserve, tax_paid, fx_clearing, external
  currency   TEXT NOT NULL,
  ref        TEXT NOT NULL DEFAULT '',  -- the vault id for vault accounts
  balance    INTEGER NOT NULL DEFAULT 0,
  entries    INTEGER NOT NULL DEFAULT 0,  -- postings on it, so paging needs no count
  created_at INTEGER NOT NULL,
  UNIQUE (user_id, livemode, kind, currency, ref)
);

CREATE TABLE IF NOT EXISTS ledger_txns (
  id          TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL DEFAULT '',
  livemode    INTEGER NOT NULL,
  kind        TEXT NOT NULL,             -- opening, funding, settlement, sequestration, tax_payment(_reversal)
  payment_id  TEXT NOT NULL DEFAULT '',
  description TEXT NOT NULL,
  created_at  INTEGER NOT NULL
);
-- One settlement (and one sequestration) per payment, ever: a settlement job
-- that runs twice cannot post twice.
CREATE UNIQUE INDEX IF NOT EXISTS ledger_txns_once ON ledger_txns (payment_id, kind) WHERE payment_id != '';
-- Lookups by payment repeat "payment_id != ''" so that index serves them
-- (an index of its own on (payment_id, kind) only cost writes).
DROP INDEX IF EXISTS ledger_txns_payment;

CREATE TABLE IF NOT EXISTS ledger_postings (
  id         TEXT PRIMARY KEY,
  txn_id     TEXT NOT NULL REFERENCES ledger_txns(id),
  account_id TEXT NOT NULL REFERENCES ledger_accounts(id),
  amount     INTEGER NOT NULL,           -- signed minor units; credit > 0
  currency   TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS ledger_postings_account ON ledger_postings (account_id, created_at DESC, id DESC);
CREATE INDEX IF NOT EXISTS ledger_postings_txn ON ledger_postings (txn_id);
CREATE TRIGGER IF NOT EXISTS ledger_postings_no_update BEFORE UPDATE ON ledger_postings
BEGIN SELECT RAISE(ABORT, 'ledger postings are immutable'); END;
CREATE TRIGGER IF NOT EXISTS ledger_postings_no_delete BEFORE DELETE ON ledger_postings
BEGIN SELECT RAISE(ABORT, 'ledger postings are immutable'); END;

CREATE TABLE IF NOT EXISTS reconciliations (
  payment_id      TEXT PRIMARY KEY,
  user_id         TEXT NOT NULL,
  livemode        INTEGER NOT NULL,
  status          TEXT NOT NULL,          -- RECONCILED or PENDING_RECONCILIATION
  invoice_ref     TEXT NOT NULL DEFAULT '',
  ledger_entry_id TEXT NOT NULL DEFAULT '',
  reason          TEXT NOT NULL DEFAULT '',
  resolved_by     TEXT NOT NULL DEFAULT '',
  note            TEXT NOT NULL DEFAULT '',
  exception       INTEGER NOT NULL DEFAULT 0,
  amount_inr      INTEGER NOT NULL,
  settled_at      INTEGER NOT NULL,
  reconciled_at   INTEGER,
  created_at      INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS reconciliations_user ON reconciliations (user_id, status, settled_at);
-- Settled receipts still pending, which the tax and GST figures report as
-- left out (store/tax_unreconciled.go): a partial index, so only a payout
-- that does not reconcile at settlement pays for it, and counting a year's
-- pending receipts reads this index alone.
CREATE INDEX IF NOT EXISTS reconciliations_pending ON reconciliations (user_id, settled_at, payment_id, amount_inr)
  WHERE status = 'PENDING_RECONCILIATION';

CREATE TABLE IF NOT EXISTS sequestration_policies (
  user_id    TEXT PRIMARY KEY,
  enabled    INTEGER NOT NULL,
  rate_bp    INTEGER NOT NULL,            -- hundredths of a percent: 12.5% = 1250
  trigger    TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);

-- Tax paid by challan (docs/tax.md, "Tax payments"): advance or
-- self-assessment tax of one financial year, recorded by the user. A wrong
-- entry is reversed, never deleted: reversed_at is set and the row stays, so
-- the list, the audit log and the ledger keep both. Only rows not reversed
-- count towards the liability and the ITR-4.
CREATE TABLE IF NOT EXISTS tax_payments (
  id               TEXT PRIMARY KEY,
  user_id          TEXT NOT NULL,
  livemode         INTEGER NOT NULL,
  fy               TEXT NOT NULL,     -- financial year, YYYY-YY
  kind             TEXT NOT NULL,     -- advance or self_assessment
  amount           INTEGER NOT NULL,  -- paise
  paid_on          TEXT NOT NULL,     -- date of deposit in India, YYYY-MM-DD
  bsr_code         TEXT NOT NULL,     -- 7 digits: the receiving bank branch
  challan_serial   TEXT NOT NULL,     -- 5 digits
  from_reserve     INTEGER NOT NULL,  -- 1 = drawn from the tax reserve in the ledger
  note             TEXT NOT NULL DEFAULT '',
  ledger_txn_id    TEXT NOT NULL DEFAULT '',
  reversal_txn_id  TEXT NOT NULL DEFAULT '',
  created_at       INTEGER NOT NULL,
  reversed_at      INTEGER
);
CREATE INDEX IF NOT EXISTS tax_payments_user_fy ON tax_payments (user_id, fy, paid_on);
-- BSR code, date and serial identify a challan (its CIN): one live entry each.
CREATE UNIQUE INDEX IF NOT EXISTS tax_payments_challan ON tax_payments (user_id, bsr_code, paid_on, challan_serial)
  WHERE reversed_at IS NULL;

-- The service's own advice of each settled cross-border payout.
CREATE TABLE IF NOT EXISTS firas (
  id                  TEXT PRIMARY KEY,
  payment_id          TEXT NOT NULL UNIQUE,
  user_id             TEXT NOT NULL,
  livemode            INTEGER NOT NULL,
  status              TEXT NOT NULL,
  remitting_bank      TEXT NOT NULL,
  remitting_country   TEXT NOT NULL,
  amount_foreign      INTEGER NOT NULL,
  foreign_currency    TEXT NOT NULL,
  amount_inr          INTEGER NOT NULL,
  settlement_rate     TEXT NOT NULL,
  purpose_code        TEXT NOT NULL,
  purpose_description TEXT NOT NULL,
  invoice_ref         TEXT NOT NULL,
  settlement_ref      TEXT NOT NULL,
  settled_at          INTEGER NOT NULL,
  generated_at        INTEGER NOT NULL,
  -- The beneficiary as the profile read when the advice was generated, so
  -- the PDF re-renders to the same bytes after a later profile edit. (Files
  -- before schema version 2 kept these in a table of their own,
  -- fira_beneficiaries; store/migrate.go moves them here.)
  beneficiary_name    TEXT NOT NULL DEFAULT '',
  beneficiary_email   TEXT NOT NULL DEFAULT '',
  -- Version 5: the remitter's name, the beneficiary's PAN, address and
  -- receiving wallet, and the vault the payout settled through.
  remitter_name       TEXT NOT NULL DEFAULT '',
  beneficiary_pan     TEXT NOT NULL DEFAULT '',
  beneficiary_address TEXT NOT NULL DEFAULT '',
  beneficiary_wallet  TEXT NOT NULL DEFAULT '',
  vault_id            TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS firas_user ON firas (user_id, generated_at DESC, id DESC);

-- Tax and compliance (docs/tax.md) -----------------------------------------

-- The FIRA list's paymentId filter uses the UNIQUE index on payment_id (one
-- row at most); a (user_id, payment_id) index only cost writes.
DROP INDEX IF EXISTS firas_user_payment;

-- Maintained tax aggregates: RECONCILED receipts per user, IST settlement
-- day and kind (cross-border or domestic). Every tax and GST figure is a sum
-- of at most a year of these rows, never a scan of payments. Only
-- store/tax_figures.go writes them: a receipt reconciled at settlement is
-- added by its own transaction, queued ones by RefreshTaxFigures.
CREATE TABLE IF NOT EXISTS tax_days (
  user_id          TEXT NOT NULL,
  day              TEXT NOT NULL,    -- IST date of settlement, YYYY-MM-DD
  cross_border     INTEGER NOT NULL, -- 1 = counterparty outside India
  txn_count        INTEGER NOT NULL,
  amount_inr       INTEGER NOT NULL, -- paise credited
  igst_18          INTEGER NOT NULL, -- Σ per-payment 18% IGST, half-up to the paisa
  first_settled_at INTEGER NOT NULL,
  last_settled_at  INTEGER NOT NULL,
  PRIMARY KEY (user_id, day, cross_border)
) WITHOUT ROWID;

-- GST counts a receipt on its time of supply (the invoice date when the
-- payment has one, else its IST settlement day) at its GST taxable value:
-- the invoice value (invoice_amount, else the amount) at the INR rate of
-- that day (docs/tax.md). gst_values holds each settled payment's value,
-- fixed when the payment is reconciled or left pending (store/gst_value.go);
-- gst_days sums the RECONCILED ones per user, time of supply, kind, currency
-- and rate, beside tax_days and by the same statements. A receipt settled
-- before version 7 has no gst_values row and counts at its settlement value
-- (store/tax_figures.go).
CREATE TABLE IF NOT EXISTS gst_values (
  payment_id     TEXT PRIMARY KEY,
  user_id        TEXT NOT NULL,
  livemode       INTEGER NOT NULL,
  cross_border   INTEGER NOT NULL,
  invoice_date   TEXT NOT NULL,    -- '' when none was given
  day            TEXT NOT NULL,    -- time of supply, YYYY-MM-DD (IST)
  currency       TEXT NOT NULL,
  invoice_amount INTEGER NOT NULL, -- minor units of currency
  rate           TEXT NOT NULL,    -- INR per unit of currency
  rate_as_of     INTEGER NOT NULL, -- when the rate was true
  rate_date      TEXT NOT NULL,    -- its IST date
  rate_basis     TEXT NOT NULL,    -- settlement, recorded or fallback (store/gst_value.go)
  value_inr      INTEGER NOT NULL, -- paise
  created_at     INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS gst_days (
  user_id        TEXT NOT NULL,
  day            TEXT NOT NULL,    -- time of supply
  cross_border   INTEGER NOT NULL,
  currency       TEXT NOT NULL,
  rate_date      TEXT NOT NULL,
  rate           TEXT NOT NULL,
  txn_count      INTEGER NOT NULL,
  by_invoice     INTEGER NOT NULL, -- of txn_count, placed on day by their invoice date
  invoice_amount INTEGER NOT NULL, -- minor units of currency
  value_inr      INTEGER NOT NULL, -- paise
  igst_18        INTEGER NOT NULL, -- Σ per-receipt 18% IGST of value_inr
  PRIMARY KEY (user_id, day, cross_border, currency, rate_date, rate)
) WITHOUT ROWID;
-- Version 5 kept GST as moves against tax_days; gst_days replaces them.
DROP TABLE IF EXISTS gst_moves;

-- INR rates with the time each was true, per mode: every settlement's rate
-- and every live quote loaded or fetched. A receipt whose time of supply is
-- not its settlement day is valued at the latest rate on or before that day.
CREATE TABLE IF NOT EXISTS inr_rates (
  livemode INTEGER NOT NULL,
  currency TEXT NOT NULL,
  as_of    INTEGER NOT NULL,
  rate     TEXT NOT NULL,
  PRIMARY KEY (livemode, currency, as_of)
) WITHOUT ROWID;

-- Reconciled payments not yet added to tax_days. A trigger below queues a
-- payment in the transaction that reconciles it by a manual resolve, and
-- RefreshTaxFigures adds the queued payments to their days in one statement
-- and empties the queue, so a refresh costs the same at ten payments or a
-- million, and running it twice changes nothing. (A payout reconciled at
-- settlement is added to its day by the settling transaction itself.)
CREATE TABLE IF NOT EXISTS tax_pending (
  user_id    TEXT NOT NULL,
  payment_id TEXT NOT NULL,
  PRIMARY KEY (user_id, payment_id)
) WITHOUT ROWID;

-- When a user's aggregates were last refreshed (the figures' asOf). A user
-- without a row gets a full rebuild on the next refresh, which also covers
-- reconciliations recorded before these tables existed. queued is set by the
-- trigger that queues a payment in tax_pending, so a refresh with nothing
-- queued is one UPDATE (store/tax_figures.go; column added in version 3).
CREATE TABLE IF NOT EXISTS tax_refresh_state (
  user_id      TEXT PRIMARY KEY,
  refreshed_at INTEGER NOT NULL,
  queued       INTEGER NOT NULL DEFAULT 0
);

-- An earlier development schema marked whole days stale instead; drop it so
-- an existing file stops doing that work.
DROP TRIGGER IF EXISTS reconciliations_tax_dirty_insert;
DROP TRIGGER IF EXISTS reconciliations_tax_dirty_update;
DROP TABLE IF EXISTS tax_dirty_days;

-- A reconciliation inserted RECONCILED (at settlement) adds itself to its
-- day in the inserting transaction (store/reconciliation.go,
-- recordReconciliation, the only code of the service that inserts them; the
-- bench's seeding queues its rows in tax_pending itself); schema version 2
-- queued it here instead and the refresh looked it up again.
DROP TRIGGER IF EXISTS reconciliations_tax_insert;
-- Version 2's trigger queued without flagging the user; this one replaces it.
DROP TRIGGER IF EXISTS reconciliations_tax_reconciled;
CREATE TRIGGER IF NOT EXISTS reconciliations_tax_resolved AFTER UPDATE OF status ON reconciliations
WHEN OLD.status != 'RECONCILED' AND NEW.status = 'RECONCILED'
BEGIN
  INSERT OR IGNORE INTO tax_pending (user_id, payment_id) VALUES (NEW.user_id, NEW.payment_id);
  UPDATE tax_refresh_state SET queued = 1 WHERE user_id = NEW.user_id;
END;
-- Reconciled is final in payoutd, so a reconciled row that loses its status or
-- changes amount, date or owner is an out-of-band edit: adding deltas can no
-- longer be trusted, and forgetting the refresh state makes the next refresh
-- rebuild the user's figures from scratch.
CREATE TRIGGER IF NOT EXISTS reconciliations_tax_changed AFTER UPDATE OF status, amount_inr, settled_at, user_id ON reconciliations
WHEN OLD.status = 'RECONCILED' AND (NEW.status != 'RECONCILED' OR NEW.amount_inr != OLD.amount_inr
  OR NEW.settled_at != OLD.settled_at OR NEW.user_id != OLD.user_id)
BEGIN
  DELETE FROM tax_refresh_state WHERE user_id IN (OLD.user_id, NEW.user_id);
END;

-- GET /compliance/audit lists a user's rows newest first (by seq, the chain
-- order, not by the clock): an index on (user_id) is ordered (user_id, seq).
CREATE INDEX IF NOT EXISTS audit_user_seq ON audit_log (user_id);
CREATE INDEX IF NOT EXISTS audit_user_action ON audit_log (user_id, action);

-- Payment counts per user and status, maintained in the transaction of every
-- insert and transition, so GET /payments answers "total" without counting
-- the user's whole history (flat cost at 10^6 payments).
CREATE TABLE IF NOT EXISTS payment_counts (
  user_id TEXT NOT NULL,
  status  TEXT NOT NULL,
  n       INTEGER NOT NULL,
  PRIMARY KEY (user_id, status)
) WITHOUT ROWID;

-- Rows per user in the audit log, event and FIRA lists (store/row_counts.go),
-- maintained like payment_counts, so those lists' totals cost the same at
-- ten rows or ten million. Kinds: audit, audit:<action>, events,
-- events:<type>, firas.
CREATE TABLE IF NOT EXISTS row_counts (
  user_id TEXT NOT NULL,
  kind    TEXT NOT NULL,
  n       INTEGER NOT NULL,
  PRIMARY KEY (user_id, kind)
) WITHOUT ROWID;

-- Files before schema version 5 had triggers here that called into payoutd's
-- process on every change of kyc, profiles and sequestration_policies; those
-- rows are now simply read where they are needed.
DROP TRIGGER IF EXISTS kyc_changed_insert;
DROP TRIGGER IF EXISTS kyc_changed_update;
DROP TRIGGER IF EXISTS kyc_changed_delete;
DROP TRIGGER IF EXISTS profiles_changed_insert;
DROP TRIGGER IF EXISTS profiles_changed_update;
DROP TRIGGER IF EXISTS profiles_changed_delete;
DROP TRIGGER IF EXISTS sequestration_changed_insert;
DROP TRIGGER IF EXISTS sequestration_changed_update;
DROP TRIGGER IF EXISTS sequestration_changed_delete;

-- Live rail (Stellar): every signed envelope, stored in the transaction that
-- records its submission and before it is first sent, so a crash can only
-- ever resend the same transaction (store/stellar_submission.go). OPEN means
-- it may still apply; the partial unique index lets a vault account have one
-- OPEN envelope at a time, which keeps its sequence numbers in order.
-- payment_id is NULL for the vault's own changeTrust.
CREATE TABLE IF NOT EXISTS stellar_submissions (
  hash        TEXT PRIMARY KEY,
  vault_id    TEXT NOT NULL REFERENCES vaults(id),
  payment_id  TEXT REFERENCES payments(id),
  attempt     INTEGER NOT NULL DEFAULT 0,
  kind        TEXT NOT NULL,
  seq         INTEGER NOT NULL,
  envelope    TEXT NOT NULL,
  valid_until INTEGER NOT NULL,
  state       TEXT NOT NULL DEFAULT 'OPEN',
  result      TEXT NOT NULL DEFAULT '',
  ledger      INTEGER,
  fee         INTEGER,
  created_at  INTEGER NOT NULL,
  finished_at INTEGER,
  -- version 9: the network's latest ledger when the envelope was signed
  -- (a NOT_FOUND is proof only from a history reaching back to it), the
  -- close time of the ledger that applied it, and the last code a send
  -- of it was refused with.
  signed_ledger INTEGER NOT NULL DEFAULT 0,
  closed_at     INTEGER,
  last_refusal  TEXT NOT NULL DEFAULT ''
);
CREATE UNIQUE INDEX IF NOT EXISTS stellar_submissions_open ON stellar_submissions (vault_id) WHERE state = 'OPEN';
CREATE INDEX IF NOT EXISTS stellar_submissions_payment ON stellar_submissions (payment_id, attempt);
-- Every sequence number payoutd used per vault account, highest first.
CREATE INDEX IF NOT EXISTS stellar_submissions_vault ON stellar_submissions (vault_id, seq);

-- What payoutd has seen of each live vault's account on the network: the
-- ledger in which it first read the account and the trustline (0: never).
-- A reply lacking one seen before is the RPC server misanswering, never an
-- account gone to zero (store/vault_chain.go).
CREATE TABLE IF NOT EXISTS vault_chain (
  vault_id       TEXT PRIMARY KEY REFERENCES vaults(id),
  account_seen   INTEGER NOT NULL DEFAULT 0,
  trustline_seen INTEGER NOT NULL DEFAULT 0,
  updated_at     INTEGER NOT NULL
);

-- What payoutd has read of a live vault's account as a list of facts: its
-- asset's movements from the chain's events (getEvents), from the first
-- ledger after opening_ledger, when the trustline held opening_stroops.
-- events_ledger is the last ledger whose events are all recorded;
-- gap_from..gap_to are ledgers whose events the RPC server no longer kept
-- when payoutd asked (closed by payoutd vaults resync). The last balance
-- check compared opening + movements with the chain balance read at
-- checked_ledger: mismatch_stroops is chain minus expected (0: equal)
-- (store/vault_track.go).
CREATE TABLE IF NOT EXISTS vault_tracks (
  vault_id         TEXT PRIMARY KEY REFERENCES vaults(id),
  opening_stroops  INTEGER NOT NULL,
  opening_ledger   INTEGER NOT NULL,
  events_ledger    INTEGER NOT NULL,
  gap_from         INTEGER NOT NULL DEFAULT 0,
  gap_to           INTEGER NOT NULL DEFAULT 0,
  checked_ledger   INTEGER NOT NULL DEFAULT 0,
  mismatch_stroops INTEGER NOT NULL DEFAULT 0,
  source           TEXT NOT NULL DEFAULT 'events', -- or 'balance' when the RPC server serves no events
  updated_at       INTEGER NOT NULL
);

-- Every movement of a vault's asset, recorded once: on the live rail one
-- CAP-67 event (transfer, mint, burn, clawback) with the vault as sender or
-- receiver; in the sandbox a deposit made through the API. An incoming
-- movement is a deposit, booked when recorded (booked_at). An outgoing one
-- is matched to the payout whose transaction it is (payment_id), or is a
-- transfer payoutd did not make: outside_at says when it was found, and
-- accepted_at when an operator's release booked it as a withdrawal outside
-- payoutd (store/vault_movement.go).
CREATE TABLE IF NOT EXISTS vault_movements (
  id            TEXT PRIMARY KEY,
  vault_id      TEXT NOT NULL REFERENCES vaults(id),
  user_id       TEXT NOT NULL,
  livemode      INTEGER NOT NULL,
  event_id      TEXT,
  direction     TEXT NOT NULL CHECK (direction IN ('in', 'out')),
  kind          TEXT NOT NULL,
  counterparty  TEXT NOT NULL DEFAULT '',
  muxed_id      TEXT NOT NULL DEFAULT '',
  amount        INTEGER NOT NULL,
  stroops       INTEGER NOT NULL DEFAULT 0,
  currency      TEXT NOT NULL,
  tx_hash       TEXT NOT NULL DEFAULT '',
  ledger        INTEGER NOT NULL DEFAULT 0,
  closed_at     INTEGER NOT NULL,
  memo          TEXT NOT NULL DEFAULT '',
  payment_id    TEXT,
  outside_at    INTEGER,
  accepted_at   INTEGER,
  created_at    INTEGER NOT NULL
);
CREATE UNIQUE INDEX IF NOT EXISTS vault_movements_event ON vault_movements (vault_id, event_id) WHERE event_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS vault_movements_list ON vault_movements (user_id, livemode, direction, created_at, id);
CREATE INDEX IF NOT EXISTS vault_movements_vault ON vault_movements (vault_id, direction, ledger);
CREATE INDEX IF NOT EXISTS vault_movements_hash ON vault_movements (tx_hash);

-- The deposits a payout pays out: named at initiate, or matched by memo
-- or invoice reference when its FIRA is written (store/payment_deposits.go).
CREATE TABLE IF NOT EXISTS payment_deposits (
  payment_id TEXT NOT NULL REFERENCES payments(id),
  deposit_id TEXT NOT NULL REFERENCES vault_movements(id),
  matched_by TEXT NOT NULL,
  PRIMARY KEY (payment_id, deposit_id)
);
CREATE INDEX IF NOT EXISTS payment_deposits_deposit ON payment_deposits (deposit_id);

-- A quarantined vault signs nothing until an operator releases it: its
-- account used a sequence number payoutd never stored (a restored backup, a
-- copy of the database running elsewhere, a leaked key), or its balance
-- fell by more than anything payoutd sent. One open quarantine per vault;
-- a release keeps the row: its chain_seq becomes a sequence number payoutd
-- accounts for, and the first chain sync after it books a fall of up to
-- its shortfall as a withdrawal (judged sets once it has looked)
-- (store/vault_quarantine.go).
CREATE TABLE IF NOT EXISTS vault_quarantines (
  id            TEXT PRIMARY KEY,
  vault_id      TEXT NOT NULL REFERENCES vaults(id),
  reason        TEXT NOT NULL,
  chain_seq     INTEGER NOT NULL,
  known_seq     INTEGER NOT NULL,
  shortfall     INTEGER NOT NULL DEFAULT 0,
  ledger        INTEGER NOT NULL,
  last_modified INTEGER NOT NULL DEFAULT 0,
  -- hashes (comma-separated) of the unknown transactions found in ledger
  -- last_modified
  unknown_hashes TEXT NOT NULL DEFAULT '',
  created_at    INTEGER NOT NULL,
  released_at   INTEGER,
  released_by   TEXT NOT NULL DEFAULT '',
  release_note  TEXT NOT NULL DEFAULT '',
  judged        INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX IF NOT EXISTS vault_quarantines_open ON vault_quarantines (vault_id) WHERE released_at IS NULL;
CREATE INDEX IF NOT EXISTS vault_quarantines_vault ON vault_quarantines (vault_id, released_at);

-- The Stellar network and assets the live books are in, recorded at the
-- first live start: a later start against another refuses
-- (store/live_network.go).
CREATE TABLE IF NOT EXISTS live_network (
  id         INTEGER PRIMARY KEY CHECK (id = 1),
  passphrase TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  -- the newest latest ledger an RPC answer reported (version 11): an answer
  -- from a ledger before it comes from a node that is behind
  latest_ledger INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS live_assets (
  currency   TEXT PRIMARY KEY,
  code       TEXT NOT NULL,
  issuer     TEXT NOT NULL,
  created_at INTEGER NOT NULL
);

-- Each live vault's last changeTrust and the XLM (stroops) its account held
-- when it was signed: one that failed is not signed (and charged) again
-- until that balance changes (stellar/trustline_backoff.go).
CREATE TABLE IF NOT EXISTS trustline_attempts (
  vault_id      TEXT PRIMARY KEY REFERENCES vaults(id),
  hash          TEXT NOT NULL,
  native_before INTEGER NOT NULL,
  created_at    INTEGER NOT NULL
);

-- The as-of time of the rate a live payout was valued at (rates/source.go),
-- printed on its FIRA. A live payout settled on chain while every rate in
-- hand was older than -rates-max-age is CONFIRMED with amount_inr NULL until
-- a fresh rate values it (store/settlement_value.go).
CREATE TABLE IF NOT EXISTS settlement_rates (
  payment_id TEXT PRIMARY KEY REFERENCES payments(id),
  rate       TEXT NOT NULL,
  as_of      INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);

-- Notices: what the console's notice list shows and e-mail sends
-- (jobs/notify_*.go). One per user per occasion (an event's id, or a date
-- such as an advance-tax instalment), so the periodic job that looks for
-- dated occasions may find the same one at every run.
CREATE TABLE IF NOT EXISTS notices (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users(id),
  livemode   INTEGER NOT NULL,
  kind       TEXT NOT NULL,
  occasion   TEXT NOT NULL,
  title      TEXT NOT NULL,
  body       TEXT NOT NULL DEFAULT '',
  link       TEXT NOT NULL DEFAULT '',  -- a console path
  created_at INTEGER NOT NULL,
  read_at    INTEGER,
  mailed_at  INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS notices_occasion ON notices (user_id, occasion);
-- newest first by rowid within a user (an index's entries of one key are in
-- rowid order)
CREATE INDEX IF NOT EXISTS notices_user ON notices (user_id);
CREATE INDEX IF NOT EXISTS notices_unread ON notices (user_id) WHERE read_at IS NULL;

-- The notice kinds a user does not want by e-mail (Settings); the console
-- lists every notice.
CREATE TABLE IF NOT EXISTS notice_mail_off (
  user_id    TEXT NOT NULL REFERENCES users(id),
  kind       TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, kind)
) WITHOUT ROWID;
