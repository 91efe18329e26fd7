package store

import (
	"context"
	"fmt"
	"strings"
)

// AdvanceJobKind is the kind of the River job that moves a payout
// (payout.AdvanceArgs): the one job a payout that owes a step must have.
const AdvanceJobKind = "payment_advance"

// FlagPayment records why the payout waits for a person, if it is still
// in status (a payout that moved on needs no one); the reason shows in its
// view until it moves again. It reports whether the payout was flagged.
func (tx *Tx) FlagPayment(id, status, reason string) (bool, error) {
	res, err := tx.exec(`UPDATE payments SET attention = ?, attention_at = ?, version = version + 1 WHERE id = ? AND status = ?`,
		reason, ms(tx.now), id, status)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return false, nil
	}
	p, err := tx.LoadPayment(id)
	if err != nil {
		return false, err
	}
	return true, tx.Audit(p.UserID, p.Livemode, "payment.needs_attention", "payment", p.ID,
		map[string]any{"status": status, "reason": reason})
}

// ClearAttention drops the payout's attention reason without moving it
// (an operator set it going again); nothing happens when it has none.
func (tx *Tx) ClearAttention(p *Payment) error {
	if p.Attention == "" {
		return nil
	}
	if _, err := tx.exec(`UPDATE payments SET attention = '', attention_at = NULL, version = version + 1 WHERE id = ?`, p.ID); err != nil {
		return err
	}
	p.Attention, p.AttentionAt, p.Version = "", nil, p.Version+1
	return nil
}

// owingStatuses are the statuses in which the pipeline owes a payout a
// step (OwesStep), as SQL.
var owingStatuses = func() string {
	var q []string
	for s := range paymentTransitions {
		if OwesStep(s) {
			q = append(q, "'"+s+"'")
		}
	}
	return strings.Join(q, ", ")
}()

// withAlive names (alive) the payouts an advance job will still take: one
// River holds available, scheduled, running or to retry. A statement that
// starts with it sees both tables in one snapshot.
const withAlive = `WITH alive AS (
		SELECT json_extract(CAST(args AS TEXT), '$.paymentId') AS payment_id FROM river_job
		WHERE kind = '` + AdvanceJobKind + `' AND state IN ('available', 'pending', 'running', 'retryable', 'scheduled')
			AND payment_id IS NOT NULL) `

// stalled is the condition on payments of a payout that owes a step but
// has no job that will run: River discarded it after its last attempt, or
// a job was never inserted.
var stalled = `(status IN (` + owingStatuses + `) AND id NOT IN (SELECT payment_id FROM alive))`

var stalledSQL = withAlive + "SELECT " + paymentCols + " FROM payments WHERE " + stalled + " ORDER BY created_at, id"

// StalledPayments lists every payout that owes a step but has no job to
// take it: nothing will move it until a person does (payoutd payouts retry).
func (db *DB) StalledPayments(ctx context.Context) ([]Payment, error) {
	return db.payments(ctx, stalledSQL)
}

// stalledProblems are check's lines for the stalled payouts.
func (db *DB) stalledProblems(ctx context.Context) ([]string, error) {
	stalled, err := db.StalledPayments(ctx)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range stalled {
		line := fmt.Sprintf("payment %s is %s and owes a step, but no job will take it (payoutd payouts retry %s)", p.ID, p.Status, p.ID)
		if p.Attention != "" {
			line += ": " + p.Attention
		}
		out = append(out, line)
	}
	return out, nil
}
