package store

import (
	"context"
	"fmt"
	"strings"
	"time"
)

// Seed describes settled, reconciled payouts written straight into a
// user's books by SeedSettled: payout i (From ≤ i < To) is i seconds old,
// USD 10.00 + (i mod 5000) cents at 83.25, sent to Destination.
type Seed struct {
	UserID      string
	From, To    int
	Destination string
	// History also writes what the pipeline leaves behind: each payout's
	// chained audit rows, its event and its FIRA.
	History bool
}

// SeedTxnID is the txnId of seeded payout i.
func SeedTxnID(i int) string { return fmt.Sprintf("seed-%d", i) }

// seedBatch is how many payouts one statement of each table carries.
const seedBatch = 500

// SeedSettled adds the payouts of s with balanced ledger postings, in large
// transactions, for the bench: the API would take hours to build 10^6
// payouts, and the bench's read phase measures reads, not writes. The
// maintained counts, the list counts and the tax figures are brought up to
// date at the end.
func (g Bench) SeedSettled(ctx context.Context, s Seed) error {
	db := g.db
	var settle, fx string
	err := db.WithTx(ctx, func(tx *Tx) (err error) {
		if settle, err = tx.ledgerAccount(s.UserID, false, AccountSettlement, "INR", ""); err != nil {
			return err
		}
		fx, err = tx.ledgerAccount("", false, AccountFXClearing, "INR", "")
		return err
	})
	if err != nil {
		return err
	}
	now := time.Now().UnixMilli()
	var added int64
	for lo := s.From; lo < s.To; lo += 20 * seedBatch {
		var sum int64 // of the run that commits (see WithTx)
		err := db.WithTx(ctx, func(tx *Tx) error {
			sum = 0
			for b := lo; b < min(lo+20*seedBatch, s.To); b += seedBatch {
				n, err := tx.seedBatch(s, settle, fx, b, min(b+seedBatch, s.To), now)
				if err != nil {
					return err
				}
				sum += n
			}
			return nil
		}, WithActor("bench", ""))
		if err != nil {
			return err
		}
		added += sum
	}
	n := s.To - s.From
	return db.WithTx(ctx, func(tx *Tx) error {
		if _, err := tx.exec("UPDATE ledger_accounts SET balance = balance + ?, entries = entries + ? WHERE id = ?", added, n, settle); err != nil {
			return err
		}
		if _, err := tx.exec("UPDATE ledger_accounts SET balance = balance - ?, entries = entries + ? WHERE id = ?", added, n, fx); err != nil {
			return err
		}
		if _, err := tx.exec(`INSERT INTO payment_counts (user_id, status, n) VALUES (?, 'COMPLETED', ?)
			ON CONFLICT (user_id, status) DO UPDATE SET n = n + excluded.n`, s.UserID, n); err != nil {
			return err
		}
		// The seeded reconciliations wait in the tax queue, as a manual
		// resolve's would; the refresh adds them to their days.
		if _, err := tx.exec("UPDATE tax_refresh_state SET queued = 1 WHERE user_id = ?", s.UserID); err != nil {
			return err
		}
		if err := tx.recountListRows(); err != nil {
			return err
		}
		return tx.Tax().RefreshTaxFigures(s.UserID)
	})
}

func (tx *Tx) seedBatch(s Seed, settle, fx string, lo, hi int, now int64) (int64, error) {
	var pay, txn, post, rec, queue, evt, fira strings.Builder
	var pa, ta, pp, ra, qa, ea, fa []any
	var sum int64
	for i := lo; i < hi; i++ {
		id, tid := NewID("pay"), NewID("ltx")
		at := now - int64(i)*1000 // one a second, back in time
		cents := int64(1000 + i%5000)
		inr := cents * 8325 / 100
		sum += inr
		sep := map[bool]string{true: "", false: ","}[i == lo]
		pay.WriteString(sep + "(?,?,0,?,'SEND','COMPLETED',?,'USD',?,'US','INV',?,?,'83.25',?,?)")
		pa = append(pa, id, s.UserID, SeedTxnID(i), cents, s.Destination, inr, at, at, at)
		txn.WriteString(sep + "(?,?,0,'settlement',?,'seeded settlement',?)")
		ta = append(ta, tid, s.UserID, id, at)
		post.WriteString(sep + "(?,?,?,?,'INR',?),(?,?,?,?,'INR',?)")
		pp = append(pp, NewID("je"), tid, settle, inr, at, NewID("je"), tid, fx, -inr, at)
		rec.WriteString(sep + "(?,?,0,'RECONCILED','INV',?,'auto',?,?,?,?)")
		ra = append(ra, id, s.UserID, "seeded", inr, at, at, at)
		queue.WriteString(sep + "(?,?)")
		qa = append(qa, s.UserID, id)
		if s.History {
			evt.WriteString(sep + "(?,?,0,'payout.completed',?,?,?)")
			ea = append(ea, NewID("evt"), s.UserID, id, `{"paymentId":"`+id+`","status":"COMPLETED"}`, at)
			fira.WriteString(sep + "(?,?,?,0,'GENERATED','Seed Bank','US',?,'USD',?,'83.25','P0802','Software consultancy','INV',?,?,?,'Bench User','bench@payoutd.local')")
			fa = append(fa, NewID("fira"), id, s.UserID, cents, inr, "sbx_"+id, at, at)
			for _, action := range []string{"payment.initiated", "payment.compliance_check", "payment.processing", "payment.submitted", "payment.confirmed", "payment.completed"} {
				if err := tx.Audit(s.UserID, false, action, "payment", id, nil); err != nil {
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
	if s.History {
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
	var before int64 // the payments' rowids, for their search index rows
	if err := tx.queryRow("SELECT coalesce(max(rowid), 0) FROM payments").Scan(&before); err != nil {
		return 0, err
	}
	stmts = append(stmts, struct {
		sql  string
		args []any
	}{`INSERT INTO payment_search (rowid, counterparty_name, invoice_ref)
		SELECT rowid, counterparty_name, invoice_ref FROM payments WHERE rowid > ?`, []any{before}})
	for _, st := range stmts {
		if _, err := tx.exec(st.sql, st.args...); err != nil {
			return 0, err
		}
	}
	return sum, nil
}
