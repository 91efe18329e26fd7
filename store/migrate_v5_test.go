package store

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// TestMigrateVersion5 builds a version-4 file (today's schema without
// version 5's columns and table, holding a settled payout, its FIRA and its
// tax day), opens it twice, and checks that the columns appear once and the
// FIRA takes the remitter, vault, PAN and wallet from its payment and
// profile.
func TestMigrateVersion5(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v4.db")
	db, err := Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	withoutRiver(db)
	_, err = db.x.Writer().Exec(`
		INSERT INTO users VALUES ('usr_1', 'a@example.com', 0, 1);
		INSERT INTO profiles (user_id, email, name, pan, wallet_address, created_at, updated_at)
		  VALUES ('usr_1', 'a@example.com', 'Asha Rao', 'ABCPR1234K', 'GWALLET', 1, 1);
		INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency, destination_address,
		  counterparty_name, counterparty_country, created_at, updated_at)
		  VALUES ('pay_1', 'usr_1', 0, 't1', 'SEND', 'COMPLETED', 100, 'USD', 'GDEST', 'Acme Corp', 'US', 1, 1);
		INSERT INTO firas (id, payment_id, user_id, livemode, status, remitting_bank, remitting_country, amount_foreign,
		  foreign_currency, amount_inr, settlement_rate, purpose_code, purpose_description, invoice_ref, settlement_ref,
		  settled_at, generated_at) VALUES ('fira_1', 'pay_1', 'usr_1', 0, 'GENERATED', 'Bank', 'US', 100, 'USD', 8325,
		  '83.25', 'P0802', 'Software', 'INV-1', 'sbx_1', 1763700000000, 1763700000000);
		INSERT INTO tax_days VALUES ('usr_1', '2025-11-21', 1, 1, 8325, 1499, 1763700000000, 1763700000000);
		DROP TABLE gst_days;
		DROP TABLE gst_values;
		DROP TABLE inr_rates;
		ALTER TABLE payments DROP COLUMN invoice_amount;
		ALTER TABLE profiles DROP COLUMN gst_special_category;
		ALTER TABLE payments DROP COLUMN invoice_date;
		ALTER TABLE profiles DROP COLUMN address;
		ALTER TABLE firas DROP COLUMN remitter_name;
		ALTER TABLE firas DROP COLUMN beneficiary_pan;
		ALTER TABLE firas DROP COLUMN beneficiary_address;
		ALTER TABLE firas DROP COLUMN beneficiary_wallet;
		ALTER TABLE firas DROP COLUMN vault_id;
		PRAGMA user_version = 4;`)
	is.NoErr(err)
	is.NoErr(db.Close())

	for range 2 { // the second open finds the current version and does nothing
		db, err = Open(ctx, path, todaysSchema(t))
		is.NoErr(err)
		withoutRiver(db)
		var version int
		is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
		is.Equal(version, SchemaVersion)
		f, err := db.Tax().FindFIRA(ctx, "usr_1", "fira_1")
		is.NoErr(err)
		is.Equal(f.RemitterName, "Acme Corp")
		is.Equal(f.BeneficiaryPAN, "ABCPR1234K")
		is.Equal(f.BeneficiaryWallet, "GWALLET")
		var invoiceDate, address sql.NullString
		is.NoErr(db.r.QueryRow("SELECT invoice_date FROM payments WHERE id = 'pay_1'").Scan(&invoiceDate))
		is.NoErr(db.r.QueryRow("SELECT address FROM profiles WHERE user_id = 'usr_1'").Scan(&address))
		is.Equal(invoiceDate.String, "")
		is.Equal(address.String, "")
		is.NoErr(db.Close())
	}
}
