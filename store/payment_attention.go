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
	if err := tx.Audit(p.UserID, p.Livemode, "payment.needs_attention", "payment", p.ID,
		map[string]any{"status": status, "reason": reason}); err != nil {
		return false, err
	}
	return true, tx.emit(p.UserID, p.Livemode, EventPayoutNeedsAttention, p.ID, eventDataOf(p))
}

// EventPayoutNeedsAttention is emitted when a payout is flagged for a
// person (FlagPayment).
const EventPayoutNeedsAttention = "payout.needs_attention"

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
// step (OwesStep), as an SQL list.
var owingStatuses = func() string {
	var q []string
	for s := range paymentTransitions {
		if OwesStep(s) {
			q = append(q, "'"+s+"'")
		}
	}
	return strings.Join(q, ", ")
}()

// StalledPayments lists every payout that owes a step but has no job to
// take it (River discarded it after its last attempt, or a job was never
// inserted): nothing will move it until a person does (payoutd payouts
// retry).
func (db *DB) StalledPayments(ctx context.Context) ([]Payment, error) {
	return db.owingPayments(ctx, "SELECT "+paymentCols+" FROM payments WHERE status IN ("+owingStatuses+") ORDER BY created_at, id",
		nil, func(p Payment, alive bool) bool { return !alive }, 0)
}

// owingPayments reads the payments query selects, and River's live advance
// jobs, in one snapshot, and keeps those keep accepts (alive: an advance job
// will still take the payout), at most limit of them (0: all).
func (db *DB) owingPayments(ctx context.Context, query string, args []any, keep func(p Payment, alive bool) bool, limit int) ([]Payment, error) {
	out := []Payment{}
	err := db.Snapshot(ctx, func(s *Snapshot) error {
		alive, err := db.aliveAdvance(ctx, s.q)
		if err != nil {
			return err
		}
		rows, err := s.q.QueryContext(ctx, query, args...)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() && (limit == 0 || len(out) < limit) {
			p, err := scanPayment(rows)
			if err != nil {
				return err
			}
			if keep(p, alive[p.ID]) {
				out = append(out, p)
			}
		}
		return rows.Err()
	})
	return out, err
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
