package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"time"
)

// AuditFilter selects a page of one user's audit rows, newest first. Zero
// bounds are open; From and To bound the row's time, both inclusive.
type AuditFilter struct {
	UserID     string
	Action     string
	ResourceID string
	From, To   time.Time
	After      string // an audit seq: only the rows after it are listed
	Page       int
	Limit      int
}

// AuditRow is an audit entry as the API lists it.
type AuditRow struct {
	Seq          int64
	At           time.Time
	Actor        string
	Action       string
	ResourceType string
	ResourceID   string
	RequestID    string
	Changes      json.RawMessage
	PrevHash     string
	Hash         string
}

var auditOrder = keyset{from: "audit_log", id: "seq"}

const auditCols = "seq, at, actor, action, resource_type, resource_id, request_id, changes, prev_hash, hash"

// ListAudit returns one page of the user's audit rows (and the row after it,
// see pageArgs) and the total matching. Rows are ordered by seq, the order
// they were chained in, which stays right even if the clock was moved.
func (g History) ListAudit(ctx context.Context, f AuditFilter) ([]AuditRow, int, error) {
	db := g.db
	where, args := "user_id = ?", []any{f.UserID}
	if f.ResourceID != "" {
		// One resource's rows are few: found through audit_resource,
		// not by walking the user's whole log in seq order.
		where = "+user_id = ?"
	}
	if f.Action != "" {
		where += " AND action = ?"
		args = append(args, f.Action)
	}
	if f.ResourceID != "" {
		where += " AND resource_id = ?"
		args = append(args, f.ResourceID)
	}
	if !f.From.IsZero() {
		where += " AND at >= ?"
		args = append(args, ms(f.From))
	}
	if !f.To.IsZero() {
		where += " AND at <= ?"
		args = append(args, ms(f.To))
	}
	total, err := db.listTotal(ctx, f.ResourceID == "" && f.From.IsZero() && f.To.IsZero(), f.UserID, kindAudit, f.Action,
		"SELECT count(*) FROM audit_log WHERE "+where, args)
	if err != nil {
		return nil, 0, err
	}
	if f.After != "" {
		cond, cargs, err := db.afterCursor(ctx, auditOrder, f.After, "user_id = ?", []any{f.UserID})
		if err != nil {
			return nil, 0, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	rows, err := db.query(ctx, "SELECT "+auditCols+" FROM audit_log WHERE "+where+auditOrder.orderBy()+" LIMIT ? OFFSET ?",
		append(args, pageArgs(f.Page, f.Limit)...)...)
	if err != nil {
		return nil, 0, err
	}
	defer rows.Close()
	out, err := scanAudit(rows)
	return out, total, err
}

// scanAudit reads every row of a query of auditCols.
func scanAudit(rows *sql.Rows) ([]AuditRow, error) {
	out := []AuditRow{}
	for rows.Next() {
		var a AuditRow
		var at int64
		var changes string
		if err := rows.Scan(&a.Seq, &at, &a.Actor, &a.Action, &a.ResourceType, &a.ResourceID, &a.RequestID, &changes,
			&a.PrevHash, &a.Hash); err != nil {
			return nil, err
		}
		a.At, a.Changes = fromMS(at), json.RawMessage(changes)
		if !json.Valid(a.Changes) {
			// Only a tampered row holds invalid JSON; show it as text so
			// the list still renders and verify can point at it.
			a.Changes, _ = json.Marshal(changes) // marshalling a string cannot fail
		}
		out = append(out, a)
	}
	return out, rows.Err()
}
