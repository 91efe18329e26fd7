package store

import (
	"strconv"
	"strings"

	"github.com/payoutd/payoutd/india"
)

// A receipt's tax day, kind and IGST as SQL over its settlement time (ms),
// counterparty country and INR: the IST settlement day (19800 s =
// UTC+05:30); cross-border or not (counterparty country
// present and not India); IGST charged per receipt, one
// invoice each, half-up to the paisa. A rebuild and a single payout's
// addition both use these, so they cannot disagree.
func taxDayOf(settledAt string) string    { return "date(" + settledAt + " / 1000 + 19800, 'unixepoch')" }
func crossBorderOf(country string) string { return country + " NOT IN ('', 'IN')" }
func igstOf(inr string) string {
	return "(" + inr + " * " + strconv.Itoa(india.IGSTPercent) + " + 50) / 100"
}

// taxDaySelect sums reconciled receipts into tax_days rows; the INR is what
// the ledger credited (the amount the reconciliation matched). The FROM and
// WHERE clauses are appended by the caller.
var taxDaySelect = `SELECT r.user_id, ` + taxDayOf("r.settled_at") + ` AS day, ` +
	crossBorderOf("p.counterparty_country") + ` AS cross_border, count(*), sum(r.amount_inr), sum(` +
	igstOf("r.amount_inr") + `), min(r.settled_at), max(r.settled_at) `

const taxDayInsert = `INSERT INTO tax_days (user_id, day, cross_border, txn_count, amount_inr, igst_18,
	first_settled_at, last_settled_at) `

// taxDayAdd adds the inserted sums to the days' existing rows.
const taxDayAdd = `
	ON CONFLICT (user_id, day, cross_border) DO UPDATE SET
		txn_count = txn_count + excluded.txn_count,
		amount_inr = amount_inr + excluded.amount_inr,
		igst_18 = igst_18 + excluded.igst_18,
		first_settled_at = min(first_settled_at, excluded.first_settled_at),
		last_settled_at = max(last_settled_at, excluded.last_settled_at)`

// taxDayAddOne adds one receipt: ?1 user, ?2 settled_at, ?3 counterparty
// country, ?4 INR.
var taxDayAddOne = taxDayInsert + `VALUES (?1, ` + taxDayOf("?2") + `, ` + crossBorderOf("?3") + `, 1, ?4, ` +
	igstOf("?4") + `, ?2, ?2)` + taxDayAdd

// gst_days rows: a reconciled receipt's GST figures from its gst_values
// row (g, LEFT JOINed), or, for a receipt settled before version 7 without
// one, from its settlement: its invoice date or settlement day, its
// settlement rate and the INR credited.
var (
	gstDayOf      = `coalesce(g.day, CASE WHEN p.invoice_date != '' THEN p.invoice_date ELSE ` + taxDayOf("r.settled_at") + ` END)`
	gstRateDateOf = `coalesce(g.rate_date, ` + taxDayOf("r.settled_at") + `)`
	gstValueOfRow = `coalesce(g.value_inr, r.amount_inr)`
)

const gstDayInsert = `INSERT INTO gst_days (user_id, day, cross_border, currency, rate_date, rate, txn_count, by_invoice,
	invoice_amount, value_inr, igst_18) `

// gstDaySelect sums the receipts of a FROM … WHERE clause (aliases r, p)
// that the caller appends, followed by gstDayGroup.
var gstDaySelect = `SELECT r.user_id, ` + gstDayOf + `, ` + crossBorderOf("p.counterparty_country") + `,
	coalesce(g.currency, p.currency), ` + gstRateDateOf + `, coalesce(g.rate, p.settlement_rate), count(*),
	sum(p.invoice_date != ''), sum(coalesce(g.invoice_amount, p.amount)), sum(` + gstValueOfRow + `),
	sum(` + igstOf(gstValueOfRow) + `) `

const gstJoin = ` LEFT JOIN gst_values g ON g.payment_id = r.payment_id `

const gstDayGroup = ` GROUP BY 1, 2, 3, 4, 5, 6`

const gstDayAdd = `
	ON CONFLICT (user_id, day, cross_border, currency, rate_date, rate) DO UPDATE SET
		txn_count = txn_count + excluded.txn_count,
		by_invoice = by_invoice + excluded.by_invoice,
		invoice_amount = invoice_amount + excluded.invoice_amount,
		value_inr = value_inr + excluded.value_inr,
		igst_18 = igst_18 + excluded.igst_18`

var gstDayAddOne = gstDayInsert + `VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ` + igstOf("?9") + `)` + gstDayAdd

// addTaxDay adds one receipt, reconciled by this transaction's insert, to
// its tax day, and to its GST day at its GST value. A user without refresh
// state gets the rows as well: their next refresh rebuilds every day from
// reconciliations anyway.
func (tx *Tx) addTaxDay(r Reconciliation, counterpartyCountry string, v GSTValue) error {
	if _, err := tx.exec(taxDayAddOne, r.UserID, ms(r.SettledAt), counterpartyCountry, r.AmountINR); err != nil {
		return err
	}
	_, err := tx.exec(gstDayAddOne, r.UserID, v.Day, v.CrossBorder, v.Currency, v.RateDate, v.Rate,
		v.ByInvoice(), v.InvoiceAmount, v.ValueINR)
	return err
}

// RefreshTaxFigures brings the user's maintained tax aggregates (tax_days and gst_days) up
// to date from RECONCILED reconciliations only, and stamps asOf. A payout
// reconciled when it settles is already in its day (recordReconciliation);
// one reconciled later by hand waits in tax_pending (queued, and the user
// flagged, by a trigger in the resolving transaction) and is added to its
// day here in one statement, the queue emptied, so the cost follows the
// number of new reconciliations, not the user's history, and a second run
// finds nothing to do. A user without refresh state (the first refresh, or
// after an out-of-band edit of a reconciled row) is rebuilt from scratch.
//
// The common case, state present and nothing queued, is the first UPDATE
// alone; row counts tell the cases apart without a read.
func (g TaxTx) RefreshTaxFigures(userID string) error {
	tx := g.tx
	now := ms(tx.now)
	res, err := tx.exec("UPDATE tax_refresh_state SET refreshed_at = ? WHERE user_id = ? AND NOT queued", now, userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return nil
	}
	res, err = tx.exec("UPDATE tax_refresh_state SET refreshed_at = ?, queued = 0 WHERE user_id = ?", now, userID)
	if err != nil {
		return err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return tx.addPendingTaxDays(userID)
	}
	if err := tx.rebuildTaxDays(userID); err != nil {
		return err
	}
	_, err = tx.exec("INSERT INTO tax_refresh_state (user_id, refreshed_at) VALUES (?, ?)", userID, now)
	return err
}

// addPendingTaxDays adds the queued payments to their days.
func (tx *Tx) addPendingTaxDays(userID string) error {
	const from = `FROM tax_pending t
		JOIN reconciliations r ON r.payment_id = t.payment_id JOIN payments p ON p.id = r.payment_id
		WHERE t.user_id = ? AND r.status = 'RECONCILED'`
	_, err := tx.exec(taxDayInsert+taxDaySelect+from+` GROUP BY 2, 3`+taxDayAdd, userID)
	if err != nil {
		return err
	}
	if _, err = tx.exec(gstDayInsert+gstDaySelect+strings.Replace(from, "WHERE", gstJoin+"WHERE", 1)+
		gstDayGroup+gstDayAdd, userID); err != nil {
		return err
	}
	_, err = tx.exec("DELETE FROM tax_pending WHERE user_id = ?", userID)
	return err
}

// rebuildTaxDays replaces every aggregate of the user from the reconciled
// rows (the reconciliations_user index range), emptying the queue they
// already include.
func (tx *Tx) rebuildTaxDays(userID string) error {
	for _, q := range []string{"DELETE FROM tax_days WHERE user_id = ?", "DELETE FROM gst_days WHERE user_id = ?",
		"DELETE FROM tax_pending WHERE user_id = ?"} {
		if _, err := tx.exec(q, userID); err != nil {
			return err
		}
	}
	const from = `FROM reconciliations r JOIN payments p ON p.id = r.payment_id
		WHERE r.user_id = ? AND r.status = 'RECONCILED'`
	if _, err := tx.exec(taxDayInsert+taxDaySelect+from+` GROUP BY 2, 3`, userID); err != nil {
		return err
	}
	_, err := tx.exec(gstDayInsert+gstDaySelect+strings.Replace(from, "WHERE", gstJoin+"WHERE", 1)+gstDayGroup, userID)
	return err
}
