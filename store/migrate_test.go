package store

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// openOlder writes a file as an older binary left it (the SQL of that
// schema and its rows) and opens it with today's schema, migrating it.
func openOlder(t *testing.T, older string) *DB {
	t.Helper()
	path := filepath.Join(t.TempDir(), "older.db")
	raw, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(older); err != nil {
		t.Fatal(err)
	}
	if err := raw.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), path, todaysSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	withoutRiver(db)
	t.Cleanup(func() { db.Close() })
	return db
}

func todaysSchema(t *testing.T) string {
	t.Helper()
	schema, err := os.ReadFile(filepath.Join("..", "schema.sql"))
	if err != nil {
		t.Fatal(err)
	}
	return string(schema)
}

// TestMigrateFIRABeneficiaries: a version-1 file keeps each FIRA's frozen
// beneficiary in fira_beneficiaries; opening it moves them into firas and
// drops the table, and the advice reads as before.
func TestMigrateFIRABeneficiaries(t *testing.T) {
	is := is.New(t)
	db := openOlder(t, `
		CREATE TABLE firas (
		  id TEXT PRIMARY KEY, payment_id TEXT NOT NULL UNIQUE, user_id TEXT NOT NULL, livemode INTEGER NOT NULL,
		  status TEXT NOT NULL, remitting_bank TEXT NOT NULL, remitting_country TEXT NOT NULL,
		  amount_foreign INTEGER NOT NULL, foreign_currency TEXT NOT NULL, amount_inr INTEGER NOT NULL,
		  settlement_rate TEXT NOT NULL, purpose_code TEXT NOT NULL, purpose_description TEXT NOT NULL,
		  invoice_ref TEXT NOT NULL, settlement_ref TEXT NOT NULL, settled_at INTEGER NOT NULL, generated_at INTEGER NOT NULL);
		CREATE TABLE fira_beneficiaries (fira_id TEXT PRIMARY KEY REFERENCES firas(id), name TEXT NOT NULL, email TEXT NOT NULL);
		INSERT INTO firas VALUES ('fira_1', 'pay_1', 'usr_1', 0, 'GENERATED', 'Bank', 'US', 150000, 'USD', 12500000,
		  '83.3333', 'P0802', 'Software', 'INV-1', 'sbx_1', 1763700000000, 1763700000000);
		INSERT INTO firas VALUES ('fira_2', 'pay_2', 'usr_1', 0, 'GENERATED', 'Bank', 'US', 100, 'USD', 8333,
		  '83.3333', 'P0802', 'Software', 'INV-2', 'sbx_2', 1763700000000, 1763700000000);
		INSERT INTO fira_beneficiaries VALUES ('fira_1', 'Asha Rao', 'asha@example.com');
		PRAGMA user_version = 1;`)
	f, err := db.Tax().FindFIRA(context.Background(), "usr_1", "fira_1")
	is.NoErr(err)
	is.Equal([2]string{f.BeneficiaryName, f.BeneficiaryEmail}, [2]string{"Asha Rao", "asha@example.com"})
	f, err = db.Tax().FindFIRA(context.Background(), "usr_1", "fira_2") // had no beneficiary row
	is.NoErr(err)
	is.Equal([2]string{f.BeneficiaryName, f.BeneficiaryEmail}, [2]string{"", ""})
	var tables, version int
	is.NoErr(db.r.QueryRow("SELECT count(*) FROM sqlite_master WHERE name = 'fira_beneficiaries'").Scan(&tables))
	is.Equal(tables, 0)
	is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
	is.Equal(version, SchemaVersion)
}

// TestMigrateTaxQueueFlag: a version-2 file has no queued column and
// queues settled payouts by trigger; opening it flags exactly the users
// with payments waiting, and replaces both queueing triggers.
func TestMigrateTaxQueueFlag(t *testing.T) {
	is := is.New(t)
	// Today's schema taken back to version 2.
	db := openOlder(t, todaysSchema(t)+`
		DROP TRIGGER reconciliations_tax_resolved;
		ALTER TABLE tax_refresh_state DROP COLUMN queued;
		CREATE TRIGGER reconciliations_tax_insert AFTER INSERT ON reconciliations WHEN NEW.status = 'RECONCILED'
		BEGIN INSERT OR IGNORE INTO tax_pending (user_id, payment_id) VALUES (NEW.user_id, NEW.payment_id); END;
		CREATE TRIGGER reconciliations_tax_reconciled AFTER UPDATE OF status ON reconciliations
		WHEN OLD.status != 'RECONCILED' AND NEW.status = 'RECONCILED'
		BEGIN INSERT OR IGNORE INTO tax_pending (user_id, payment_id) VALUES (NEW.user_id, NEW.payment_id); END;
		INSERT INTO tax_refresh_state VALUES ('usr_1', 1), ('usr_2', 1);
		INSERT INTO tax_pending VALUES ('usr_1', 'pay_1');
		PRAGMA user_version = 2;`)
	var flagged string
	is.NoErr(db.r.QueryRow("SELECT group_concat(user_id) FROM tax_refresh_state WHERE queued").Scan(&flagged))
	is.Equal(flagged, "usr_1")
	var triggers string
	is.NoErr(db.r.QueryRow(`SELECT group_concat(name) FROM (SELECT name FROM sqlite_master
		WHERE type = 'trigger' AND tbl_name = 'reconciliations' ORDER BY name)`).Scan(&triggers))
	is.Equal(triggers, "reconciliations_tax_changed,reconciliations_tax_resolved")
}

// TestMigrateEarlyTaxState: the first version-1 files with tax refresh
// state had no tax_pending queue yet; they open, and gain the flag.
func TestMigrateEarlyTaxState(t *testing.T) {
	is := is.New(t)
	db := openOlder(t, `CREATE TABLE tax_refresh_state (user_id TEXT PRIMARY KEY, refreshed_at INTEGER NOT NULL);
		INSERT INTO tax_refresh_state VALUES ('usr_1', 1);
		PRAGMA user_version = 1;`)
	var queued int
	is.NoErr(db.r.QueryRow("SELECT queued FROM tax_refresh_state WHERE user_id = 'usr_1'").Scan(&queued))
	is.Equal(queued, 0)
}

// TestMigratePaymentMetadata: a version-4 file has no payments.metadata;
// opening it adds the column, its payments read with no metadata, a new
// payment keeps its own, and the step is a no-op on a file that has it.
func TestMigratePaymentMetadata(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	db := openOlder(t, `
		CREATE TABLE payments (
		  id TEXT PRIMARY KEY, user_id TEXT NOT NULL, livemode INTEGER NOT NULL, txn_id TEXT NOT NULL, type TEXT NOT NULL,
		  status TEXT NOT NULL, amount INTEGER NOT NULL CHECK (amount > 0), currency TEXT NOT NULL,
		  destination_address TEXT NOT NULL, memo TEXT NOT NULL DEFAULT '', purpose_code TEXT NOT NULL DEFAULT '',
		  invoice_ref TEXT NOT NULL DEFAULT '', counterparty_name TEXT NOT NULL DEFAULT '',
		  counterparty_country TEXT NOT NULL DEFAULT '', counterparty_bank TEXT NOT NULL DEFAULT '', vault_id TEXT,
		  reserved INTEGER NOT NULL DEFAULT 0, attempt INTEGER NOT NULL DEFAULT 0, failed_reason TEXT NOT NULL DEFAULT '',
		  settlement_ref TEXT NOT NULL DEFAULT '', settlement_rate TEXT NOT NULL DEFAULT '', amount_inr INTEGER,
		  settled_at INTEGER, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, UNIQUE (user_id, txn_id));
		INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency, destination_address, created_at, updated_at)
		  VALUES ('pay_1', 'usr_1', 0, 't1', 'SEND', 'INITIATED', 100, 'USD', 'GA', 1763700000000, 1763700000000);
		PRAGMA user_version = 4;`)
	p, err := db.Payments().FindPayment(ctx, "usr_1", "pay_1")
	is.NoErr(err)
	is.Equal(len(p.Metadata), 0)
	var version int
	is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
	is.Equal(version, SchemaVersion)
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error { return paymentMetadataColumn(ctx, tx) })) // again: nothing to do
	is.NoErr(db.WithTx(ctx, func(tx *Tx) error {
		_, err := tx.exec(`UPDATE payments SET metadata = '{"order":"A-1"}' WHERE id = 'pay_1'`)
		return err
	}))
	p, err = db.Payments().FindPayment(ctx, "usr_1", "pay_1")
	is.NoErr(err)
	is.Equal(p.Metadata, map[string]string{"order": "A-1"})
}
