package store

import (
	"context"
	"database/sql"
	"testing"
)

// TestHeldPaymentRow: transitions of a held payout are audited at once but
// its row and status counts are written once, at the flush, guarded by the
// state the run started from.
func TestHeldPaymentRow(t *testing.T) {
	db, sealer := openTestDB(t)
	ctx := context.Background()
	u := testUser(t, db, sealer)
	confirmed := func() Payment {
		var p Payment
		err := db.WithTx(ctx, func(tx *Tx) error {
			v, err := tx.DefaultVault(u.ID)
			if err != nil {
				return err
			}
			if p, err = tx.CreatePayment(Payment{UserID: u.ID, TxnID: NewID("txn"), Amount: 100, Currency: v.Currency,
				DestinationAddress: v.Address, CounterpartyCountry: "IN"}); err != nil {
				return err
			}
			p, err = tx.ConfirmPayment(u.ID, ConfirmInput{ID: p.ID, DestinationAddress: p.DestinationAddress,
				Amount: p.Amount, Currency: p.Currency, VaultID: v.ID, Sealer: sealer})
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	rowStatus := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}, id string) string {
		var s string
		if err := q.QueryRowContext(ctx, "SELECT status FROM payments WHERE id = ?", id).Scan(&s); err != nil {
			t.Fatal(err)
		}
		return s
	}
	count := func(status string) (n int) {
		db.R.QueryRowContext(ctx, "SELECT coalesce(sum(n), 0) FROM payment_counts WHERE user_id = ? AND status = ?", u.ID, status).Scan(&n)
		return n
	}

	p := confirmed()
	err := db.WithTx(ctx, func(tx *Tx) error {
		tx.HoldPaymentRow(p)
		if err := tx.Transition(&p, StatusProcessing, nil); err != nil {
			return err
		}
		if err := tx.Transition(&p, StatusSubmitted, func(n *Payment) { n.SettlementRef = "ref-1" }); err != nil {
			return err
		}
		if got := rowStatus(tx, p.ID); got != StatusComplianceCheck {
			t.Errorf("row written before the flush: %s", got)
		}
		return tx.FlushPaymentRow()
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := rowStatus(db.R, p.ID); got != StatusSubmitted {
		t.Fatalf("row after flush: %s, want SUBMITTED", got)
	}
	if c, pr, s := count(StatusComplianceCheck), count(StatusProcessing), count(StatusSubmitted); c != 0 || pr != 0 || s != 1 {
		t.Fatalf("counts COMPLIANCE_CHECK %d PROCESSING %d SUBMITTED %d, want 0 0 1", c, pr, s)
	}
	var audited int
	db.R.QueryRowContext(ctx, "SELECT count(*) FROM audit_log WHERE resource_id = ? AND action IN ('payment.processing', 'payment.submitted')", p.ID).Scan(&audited)
	if audited != 2 {
		t.Fatalf("%d audit rows for the held transitions, want 2", audited)
	}

	// Someone else moves the row while it is held: the flush refuses and
	// the transaction writes nothing.
	q := confirmed()
	err = db.WithTx(ctx, func(tx *Tx) error {
		tx.HoldPaymentRow(q)
		if err := tx.Transition(&q, StatusProcessing, nil); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE payments SET status = 'FAILED' WHERE id = ?", q.ID); err != nil {
			return err
		}
		return tx.FlushPaymentRow()
	})
	if ErrorCode(err) != ErrInvalidState {
		t.Fatalf("flush over a moved row: %v, want ERR_INVALID_STATE", err)
	}
	if got := rowStatus(db.R, q.ID); got != StatusComplianceCheck {
		t.Fatalf("row after the refused flush: %s, want COMPLIANCE_CHECK", got)
	}

	// A copy of a payout in PROCESSING, taken before it failed and was
	// retried back to PROCESSING: the status matches again, yet the flush
	// refuses (attempt and update time differ) and the retry's row stands.
	r := confirmed()
	move := func(p *Payment, to string, set func(*Payment)) {
		t.Helper()
		if err := db.WithTx(ctx, func(tx *Tx) error { return tx.Transition(p, to, set) }); err != nil {
			t.Fatal(err)
		}
	}
	move(&r, StatusProcessing, nil)
	stale := r
	move(&r, StatusFailed, func(n *Payment) { n.FailedReason = "SETTLEMENT_REJECTED: test" })
	move(&r, StatusProcessing, func(n *Payment) { n.Attempt++ })
	err = db.WithTx(ctx, func(tx *Tx) error {
		tx.HoldPaymentRow(stale)
		if err := tx.Transition(&stale, StatusSubmitted, func(n *Payment) { n.SettlementRef = "stale" }); err != nil {
			return err
		}
		return tx.FlushPaymentRow()
	})
	if ErrorCode(err) != ErrInvalidState {
		t.Fatalf("flush of a copy from before a retry: %v, want ERR_INVALID_STATE", err)
	}
	var status string
	var attempt int
	if err := db.R.QueryRowContext(ctx, "SELECT status, attempt FROM payments WHERE id = ?", r.ID).Scan(&status, &attempt); err != nil {
		t.Fatal(err)
	}
	if status != StatusProcessing || attempt != 1 {
		t.Fatalf("row after the refused flush: %s attempt %d, want PROCESSING attempt 1", status, attempt)
	}
}
