package store

import (
	"context"
	"fmt"

	"github.com/riverqueue/river/rivermigrate"
)

// SchemaVersion is the version an up-to-date file carries in PRAGMA user_version.
const SchemaVersion = 12

// migration changes an existing file from version-1 to version. schema.sql
// always describes the newest schema with IF NOT EXISTS everywhere, so new
// tables and indexes need no step here; a step is for what schema.sql cannot
// express idempotently (new columns, backfills).
type migration struct {
	version int
	apply   func(ctx context.Context, tx *Tx) error
	// afterSchema steps run once schema.sql has created what they fill.
	afterSchema bool
}

var migrations = []migration{
	{2, firaBeneficiaryColumns, false},
	{3, taxQueueColumn, false},
	{3, taxQueueFlag, true},
	{4, countListRows, true},
	{5, complianceColumns, false},
	{5, paymentMetadataColumn, false},
	{6, paymentVersionColumns, false},
	{6, paymentVersionBackfill, true},
	{7, gstValueColumns, false},
	{7, gstValueBackfill, true},
	{8, operatorColumns, false},
	{9, submissionProofColumns, false},
	{10, quarantineHashesColumn, false},
	{11, paymentClientColumn, false},
	{11, profileRegistrationColumns, false},
	{11, latestLedgerColumn, false},
	{12, paymentSearchRebuild, true},
}

// paymentSearchRebuild fills version 12's payment_search (schema.sql), the
// trigram index a search of payouts reads, from the payouts already held.
func paymentSearchRebuild(ctx context.Context, tx *Tx) error {
	_, err := tx.exec("INSERT INTO payment_search (payment_search) VALUES ('rebuild')")
	return err
}

// paymentClientColumn adds version 11's payments.client_id: payouts made
// before it name no client.
func paymentClientColumn(ctx context.Context, tx *Tx) error {
	return addColumns(tx, columnDef{"payments", "client_id", "TEXT NOT NULL DEFAULT ''"})
}

// latestLedgerColumn adds version 11's column to live_network: the newest
// ledger an RPC answer reported, below which an answer is a node behind.
func latestLedgerColumn(ctx context.Context, tx *Tx) error {
	return addColumns(tx, columnDef{"live_network", "latest_ledger", "INTEGER NOT NULL DEFAULT 0"})
}

// profileRegistrationColumns adds version 11's profile columns: the State
// of the principal place of business and the date GST registration took
// effect. Profiles from before keep both empty: the GSTIN's State and the
// day turnover crossed the threshold stand in.
func profileRegistrationColumns(ctx context.Context, tx *Tx) error {
	return addColumns(tx,
		columnDef{"profiles", "state_code", "TEXT NOT NULL DEFAULT ''"},
		columnDef{"profiles", "gst_registered_from", "TEXT NOT NULL DEFAULT ''"})
}

// quarantineHashesColumn adds version 10's column to vault_quarantines:
// the hashes of the unknown transactions a quarantine found. Quarantines
// opened before keep an empty list.
func quarantineHashesColumn(ctx context.Context, tx *Tx) error {
	return addColumns(tx, columnDef{"vault_quarantines", "unknown_hashes", "TEXT NOT NULL DEFAULT ''"})
}

// submissionProofColumns adds version 9's columns to stellar_submissions:
// the ledger an envelope was signed at, the close time of the ledger that
// applied it and the last refusal of a send. Envelopes signed before
// version 9 keep signed_ledger 0, which no RPC history reaches back to: a
// refusal of one is final only on the account's sequence number.
func submissionProofColumns(ctx context.Context, tx *Tx) error {
	return addColumns(tx,
		columnDef{"stellar_submissions", "signed_ledger", "INTEGER NOT NULL DEFAULT 0"},
		columnDef{"stellar_submissions", "closed_at", "INTEGER"},
		columnDef{"stellar_submissions", "last_refusal", "TEXT NOT NULL DEFAULT ''"})
}

// paymentVersionColumns adds the payment's version and review reason to a
// file that has payments.
func paymentVersionColumns(ctx context.Context, tx *Tx) error {
	return addColumns(tx,
		columnDef{"payments", "version", "INTEGER NOT NULL DEFAULT 1"},
		columnDef{"payments", "review_reason", "TEXT NOT NULL DEFAULT ''"})
}

// paymentVersionBackfill gives each existing payment the number of changes
// it has had as its version, which its audit rows count (one at initiate,
// one per state change, one for a later valuation), so no version a client
// could have inferred is handed out again.
func paymentVersionBackfill(ctx context.Context, tx *Tx) error {
	_, err := tx.exec(`UPDATE payments SET version = max(1, (SELECT count(*) FROM audit_log a
		WHERE a.resource_id = payments.id AND a.resource_type = 'payment'))`)
	return err
}

// gstValueColumns adds version 7's columns: a payment's invoice amount and
// the profile's special-category flag (GST valued at the time-of-supply
// rate, and the registration threshold).
func gstValueColumns(ctx context.Context, tx *Tx) error {
	return addColumns(tx,
		columnDef{"payments", "invoice_amount", "INTEGER NOT NULL DEFAULT 0"},
		columnDef{"profiles", "gst_special_category", "INTEGER NOT NULL DEFAULT 0"})
}

// gstValueBackfill seeds the rate history with every settled payout's rate
// and fills gst_days (gst_moves is gone) with the reconciled receipts
// already in tax_days, the same statement a rebuild runs; queued ones are
// added by the next refresh, and users without refresh state are rebuilt by
// it. Receipts settled before version 7 keep their settlement value: they
// have no gst_values row.
func gstValueBackfill(ctx context.Context, tx *Tx) error {
	if _, err := tx.exec(`INSERT OR IGNORE INTO inr_rates (livemode, currency, as_of, rate)
		SELECT p.livemode, p.currency, coalesce(sr.as_of, p.settled_at), p.settlement_rate FROM payments p
		LEFT JOIN settlement_rates sr ON sr.payment_id = p.id
		WHERE p.settled_at IS NOT NULL AND p.settlement_rate != ''`); err != nil {
		return err
	}
	_, err := tx.exec(gstDayInsert + gstDaySelect + `FROM reconciliations r JOIN payments p ON p.id = r.payment_id` +
		gstJoin + `WHERE r.status = 'RECONCILED' AND r.user_id IN (SELECT user_id FROM tax_refresh_state)
		AND NOT EXISTS (SELECT 1 FROM tax_pending t WHERE t.payment_id = r.payment_id)` + gstDayGroup)
	return err
}

type columnDef struct{ table, column, decl string }

// addColumns adds each column its table lacks; a table not there yet is
// left to schema.sql, which creates it with the column.
func addColumns(tx *Tx, cols ...columnDef) error {
	for _, c := range cols {
		if _, err := addColumn(tx, c); err != nil {
			return err
		}
	}
	return nil
}

// addColumn adds the column when its table exists without it, and says
// whether it did.
func addColumn(tx *Tx, c columnDef) (bool, error) {
	var tables, columns int
	if err := tx.queryRow(`SELECT
		(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?),
		(SELECT count(*) FROM pragma_table_info(?) WHERE name = ?)`, c.table, c.table, c.column).Scan(&tables, &columns); err != nil {
		return false, err
	}
	if tables == 0 || columns == 1 {
		return false, nil
	}
	_, err := tx.exec("ALTER TABLE " + c.table + " ADD COLUMN " + c.column + " " + c.decl)
	return err == nil, err
}

// complianceColumns adds version 5's columns to the tables a file already
// has (schema.sql creates new tables with them, gst_moves among them, which
// starts empty: no payment had an invoice date before version 5): the payment's invoice date
// (GST time of supply), the profile's postal address, and what a FIRA now
// freezes, which existing advices take from their payment and the current
// profile. Each column is added only when missing, so a re-run changes
// nothing.
func complianceColumns(ctx context.Context, tx *Tx) error {
	for _, c := range []struct{ table, column string }{
		{"payments", "invoice_date"}, {"profiles", "address"},
		{"firas", "remitter_name"}, {"firas", "beneficiary_pan"}, {"firas", "beneficiary_address"},
		{"firas", "beneficiary_wallet"}, {"firas", "vault_id"},
	} {
		added, err := addColumn(tx, columnDef{c.table, c.column, "TEXT NOT NULL DEFAULT ''"})
		if err != nil {
			return err
		}
		if added && c.table == "firas" && c.column == "vault_id" {
			var sources int
			if err := tx.queryRow(`SELECT count(*) FROM sqlite_master
				WHERE type = 'table' AND name IN ('payments', 'profiles')`).Scan(&sources); err != nil || sources < 2 {
				return err
			}
			if _, err := tx.exec(`UPDATE firas SET remitter_name = p.counterparty_name,
				vault_id = coalesce(p.vault_id, ''), beneficiary_pan = coalesce(pr.pan, ''),
				beneficiary_wallet = coalesce(pr.wallet_address, '')
				FROM payments p LEFT JOIN profiles pr ON pr.user_id = p.user_id WHERE p.id = firas.payment_id`); err != nil {
				return err
			}
		}
	}
	return nil
}

// taxQueueColumn adds tax_refresh_state.queued to a file that has the
// table (schema.sql creates it with the column otherwise). With the flag
// version 3 adds a payout reconciled at settlement to its tax day in the
// settling transaction (schema.sql drops the trigger that queued it) and
// skips the queue when nothing is flagged. A version-2 binary would
// recreate that trigger and count such payouts twice; the version number
// makes it refuse the file.
func taxQueueColumn(ctx context.Context, tx *Tx) error {
	return addColumns(tx, columnDef{"tax_refresh_state", "queued", "INTEGER NOT NULL DEFAULT 0"})
}

// taxQueueFlag flags every user with payments already waiting in
// tax_pending (after schema.sql: early version-1 files have no queue).
func taxQueueFlag(ctx context.Context, tx *Tx) error {
	_, err := tx.exec("UPDATE tax_refresh_state SET queued = 1 WHERE user_id IN (SELECT user_id FROM tax_pending)")
	return err
}

// firaBeneficiaryColumns moves each FIRA's frozen beneficiary from the
// fira_beneficiaries table into columns of firas: one row and two b-trees
// fewer to write per settled payout. A new file has no firas table yet;
// schema.sql creates it with the columns.
func firaBeneficiaryColumns(ctx context.Context, tx *Tx) error {
	var firas, beneficiaries int
	if err := tx.queryRow(`SELECT
		(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'firas'),
		(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'fira_beneficiaries')`).Scan(&firas, &beneficiaries); err != nil {
		return err
	}
	if firas == 0 {
		return nil
	}
	for _, col := range []string{"beneficiary_name", "beneficiary_email"} {
		if _, err := tx.exec("ALTER TABLE firas ADD COLUMN " + col + " TEXT NOT NULL DEFAULT ''"); err != nil {
			return err
		}
	}
	if beneficiaries == 0 {
		return nil
	}
	if _, err := tx.exec(`UPDATE firas SET beneficiary_name = b.name, beneficiary_email = b.email
		FROM fira_beneficiaries b WHERE b.fira_id = firas.id`); err != nil {
		return err
	}
	_, err := tx.exec("DROP TABLE fira_beneficiaries")
	return err
}

func (db *DB) migrate(ctx context.Context, schema string) error {
	var version int
	if err := db.queryRow(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	if version > SchemaVersion {
		return fmt.Errorf("database schema version %d is newer than this binary (%d)", version, SchemaVersion)
	}
	err := db.WithTx(ctx, func(tx *Tx) error {
		steps := func(afterSchema bool) error {
			for _, m := range migrations {
				if m.version > version && m.afterSchema == afterSchema {
					if err := m.apply(ctx, tx); err != nil {
						return fmt.Errorf("migration %d: %w", m.version, err)
					}
				}
			}
			return nil
		}
		if err := steps(false); err != nil {
			return err
		}
		if _, err := tx.exec(schema); err != nil {
			return fmt.Errorf("apply schema.sql: %w", err)
		}
		if err := steps(true); err != nil {
			return err
		}
		if err := keepSearchIndex(tx); err != nil {
			return fmt.Errorf("search index: %w", err)
		}
		_, err := tx.exec(fmt.Sprintf("PRAGMA user_version = %d", SchemaVersion))
		return err
	})
	if err != nil {
		return err
	}
	migrator, err := rivermigrate.New(db.riverDriver(), nil)
	if err != nil {
		return err
	}
	if _, err := migrator.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("river migrations: %w", err)
	}
	return nil
}
