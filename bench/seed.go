package bench

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/payoutd/payoutd/store"
)

// seed adds settled, reconciled payouts [from, to) to the user's history
// directly in SQL, with balanced ledger postings, in large transactions: the
// API would take hours to build 10^6 payouts and the read phase measures
// reads, not writes.
//
// With history, each payout also gets what the pipeline leaves behind: its
// audit rows (chained, through the store), its events and its FIRA, so
// the cost of a growing history can be measured.
func seed(ctx context.Context, db *store.DB, userID string, from, to int, history bool) error {
	const batch = 500
	var settle, fx string
	err := db.WithTx(ctx, func(tx *store.Tx) (err error) {
		if settle, err = tx.LedgerAccount(userID, false, store.AccountSettlement, "INR", ""); err != nil {
			return err
		}
		fx, err = tx.LedgerAccount("", false, store.AccountFXClearing, "INR", "")
		return err
	})
	if err != nil {
		return err
	}
	now := time.Now().UnixMilli()
	var added int64
	for lo := from; lo < to; lo += 20 * batch {
		err := db.WithTx(ctx, func(tx *store.Tx) error {
			for b := lo; b < min(lo+20*batch, to); b += batch {
				n, err := seedBatch(ctx, tx, userID, settle, fx, b, min(b+batch, to), now, history)
				if err != nil {
					return err
				}
				added += n
			}
			return nil
		}, store.WithActor("bench", ""))
		if err != nil {
			return err
		}
	}
	return db.WithTx(ctx, func(tx *store.Tx) error {
		if _, err := tx.ExecContext(ctx, "UPDATE ledger_accounts SET balance = balance + ?, entries = entries + ? WHERE id = ?", added, to-from, settle); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "UPDATE ledger_accounts SET balance = balance - ?, entries = entries + ? WHERE id = ?", added, to-from, fx); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO payment_counts (user_id, status, n) VALUES (?, 'COMPLETED', ?)
			ON CONFLICT (user_id, status) DO UPDATE SET n = n + excluded.n`, userID, to-from); err != nil {
			return err
		}
		// The seeded reconciliations wait in the tax queue, as a manual
		// resolve's would; the refresh adds them to their days.
		if _, err := tx.ExecContext(ctx, "UPDATE tax_refresh_state SET queued = 1 WHERE user_id = ?", userID); err != nil {
			return err
		}
		if err := tx.RecountListRows(); err != nil {
			return err
		}
		return tx.RefreshTaxFigures(userID)
	})
}

func seedBatch(ctx context.Context, tx *store.Tx, userID, settle, fx string, lo, hi int, now int64, history bool) (int64, error) {
	var pay, txn, post, rec, queue, evt, fira strings.Builder
	var pa, ta, pp, ra, qa, ea, fa []any
	var sum int64
	for i := lo; i < hi; i++ {
		id, tid := store.NewID("pay"), store.NewID("ltx")
		at := now - int64(i)*1000 // one a second, back in time
		cents := int64(1000 + i%5000)
		inr := cents * 8325 / 100
		sum += inr
		sep := map[bool]string{true: "", false: ","}[i == lo]
		pay.WriteString(sep + "(?,?,0,?,'SEND','COMPLETED',?,'USD',?,'US','INV',?,?,'83.25',?,?)")
		pa = append(pa, id, userID, fmt.Sprintf("seed-%d", i), cents, address, inr, at, at, at)
		txn.WriteString(sep + "(?,?,0,'settlement',?,'seeded settlement',?)")
		ta = append(ta, tid, userID, id, at)
		post.WriteString(sep + "(?,?,?,?,'INR',?),(?,?,?,?,'INR',?)")
		pp = append(pp, store.NewID("je"), tid, settle, inr, at, store.NewID("je"), tid, fx, -inr, at)
		rec.WriteString(sep + "(?,?,0,'RECONCILED','INV',?,'auto',?,?,?,?)")
		ra = append(ra, id, userID, "seeded", inr, at, at, at)
		queue.WriteString(sep + "(?,?)")
		qa = append(qa, userID, id)
		if history {
			evt.WriteString(sep + "(?,?,0,'payout.completed',?,?,?)")
			ea = append(ea, store.NewID("evt"), userID, id, `{"paymentId":"`+id+`","status":"COMPLETED"}`, at)
			fira.WriteString(sep + "(?,?,?,0,'GENERATED','Seed Bank','US',?,'USD',?,'83.25','P0802','Software consultancy','INV',?,?,?,'Bench User','bench@payoutd.local')")
			fa = append(fa, store.NewID("fira"), id, userID, cents, inr, "sbx_"+id, at, at)
			for _, action := range []string{"payment.initiated", "payment.compliance_check", "payment.processing", "payment.submitted", "payment.confirmed", "payment.completed"} {
				if err := tx.Audit(userID, false, action, "payment", id, nil); err != nil {
					return 0, err
				}
			}
		}
	}
	stmts := []struct {
		sql  string
		args []any
	}{
		{`INSERT INTO payments (id, user_id, livemode, txn_id, type, status, amount, currency, destination_address,
			counterparty_country, invoice_ref, amount_inr, settled_at, settlement_rate, created_at, updated_at) VALUES ` + pay.String(), pa},
		{"INSERT INTO ledger_txns (id, user_id, livemode, kind, payment_id, description, created_at) VALUES " + txn.String(), ta},
		{"INSERT INTO ledger_postings (id, txn_id, account_id, amount, currency, created_at) VALUES " + post.String(), pp},
		{`INSERT INTO reconciliations (payment_id, user_id, livemode, status, invoice_ref, ledger_entry_id, resolved_by,
			amount_inr, settled_at, reconciled_at, created_at) VALUES ` + rec.String(), ra},
		{"INSERT INTO tax_pending (user_id, payment_id) VALUES " + queue.String(), qa},
	}
	if history {
		stmts = append(stmts, []struct {
			sql  string
			args []any
		}{
			{"INSERT INTO events (id, user_id, livemode, type, resource_id, data, created_at) VALUES " + evt.String(), ea},
			{`INSERT INTO firas (id, payment_id, user_id, livemode, status, remitting_bank, remitting_country, amount_foreign,
				foreign_currency, amount_inr, settlement_rate, purpose_code, purpose_description, invoice_ref, settlement_ref,
				settled_at, generated_at, beneficiary_name, beneficiary_email) VALUES ` + fira.String(), fa},
		}...)
	}
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s.sql, s.args...); err != nil {
			return 0, err
		}
	}
	return sum, nil
}
