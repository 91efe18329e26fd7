package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// TestMigrateVersion6 builds a version-5 file (today's schema without the
// payment's version and review reason) holding a completed payout with its
// audit trail and an initiated one, opens it twice, and checks that each
// payment's version is the number of changes its audit rows record, so the
// next change hands out a version no client has seen.
func TestMigrateVersion6(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v5.db")
	db, err := Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	_, err = db.x.Writer().Exec(`
		INSERT INTO users VALUES ('usr_1', 'a@example.com', 0, 1);
		INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency, destination_address, created_at, updated_at)
		  VALUES ('pay_1', 'usr_1', 0, 't1', 'SEND', 'COMPLETED', 100, 'USD', 'GDEST', 1, 1),
		         ('pay_2', 'usr_1', 0, 't2', 'SEND', 'INITIATED', 100, 'USD', 'GDEST', 1, 1);
		INSERT INTO audit_log (seq, at, user_id, actor, action, resource_type, resource_id, prev_hash, hash) VALUES
		  (1, 1, 'usr_1', 'key', 'payment.initiated', 'payment', 'pay_1', '', 'h1'),
		  (2, 1, 'usr_1', 'key', 'payment.compliance_check', 'payment', 'pay_1', 'h1', 'h2'),
		  (3, 1, 'usr_1', 'system', 'payment.processing', 'payment', 'pay_1', 'h2', 'h3'),
		  (4, 1, 'usr_1', 'system', 'payment.submitted', 'payment', 'pay_1', 'h3', 'h4'),
		  (5, 1, 'usr_1', 'system', 'payment.confirmed', 'payment', 'pay_1', 'h4', 'h5'),
		  (6, 1, 'usr_1', 'system', 'payment.completed', 'payment', 'pay_1', 'h5', 'h6'),
		  (7, 1, 'usr_1', 'key', 'webhook.created', 'webhook', 'pay_1', 'h6', 'h7'),
		  (8, 1, 'usr_1', 'key', 'payment.initiated', 'payment', 'pay_2', 'h7', 'h8');
		ALTER TABLE payments DROP COLUMN version;
		ALTER TABLE payments DROP COLUMN review_reason;
		PRAGMA user_version = 5;`)
	is.NoErr(err)
	is.NoErr(db.Close())

	for range 2 { // the second open finds version 6 and does nothing
		db, err = Open(ctx, path, todaysSchema(t))
		is.NoErr(err)
		var version int
		is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
		is.Equal(version, SchemaVersion)
		done, err := db.Payments().FindPayment(ctx, "usr_1", "pay_1")
		is.NoErr(err)
		is.Equal(done.Version, int64(6)) // initiated and five state changes; the webhook row is not the payment's
		is.Equal(done.ReviewReason, "")
		fresh, err := db.Payments().FindPayment(ctx, "usr_1", "pay_2")
		is.NoErr(err)
		is.Equal(fresh.Version, int64(1))
		is.NoErr(db.Close())
	}
}
