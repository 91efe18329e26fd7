package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/matryer/is"
)

// TestMigrateVersion11 builds a version-10 file whose payments lack
// client_id and holds a payout, opens it twice, and checks that the column
// appears once, the old payout names no client, and a client's payouts are
// listed through the new index.
func TestMigrateVersion11(t *testing.T) {
	is := is.New(t)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "v10.db")
	db, err := Open(ctx, path, todaysSchema(t))
	is.NoErr(err)
	_, err = db.x.Writer().Exec(`
		INSERT INTO users VALUES ('usr_1', 'a@example.com', 0, 1);
		INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency, destination_address, created_at, updated_at)
		  VALUES ('pay_1', 'usr_1', 0, 't1', 'SEND', 'INITIATED', 100, 'USD', 'GDEST', 1, 1);
		DROP INDEX payments_user_client;
		ALTER TABLE payments DROP COLUMN client_id;
		PRAGMA user_version = 10;`)
	is.NoErr(err)
	is.NoErr(db.Close())

	for range 2 { // the second open finds version 11 and does nothing
		db, err = Open(ctx, path, todaysSchema(t))
		is.NoErr(err)
		var version int
		is.NoErr(db.r.QueryRow("PRAGMA user_version").Scan(&version))
		is.Equal(version, SchemaVersion)
		p, err := db.Payments().FindPayment(ctx, "usr_1", "pay_1")
		is.NoErr(err)
		is.Equal(p.ClientID, "")
		ps, n, err := db.Payments().ListPayments(ctx, PaymentFilter{UserID: "usr_1", ClientID: "cli_1", Page: 1, Limit: 10})
		is.NoErr(err)
		is.Equal(len(ps), 0)
		is.Equal(n, 0)
		is.NoErr(db.Close())
	}
}
