package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/payoutd/payoutd/apperr"
	"github.com/payoutd/payoutd/wire"
)

// LUT is a Letter of Undertaking as furnished on the GST portal: the ARN
// it was accepted under, the financial year it covers and the date it was
// furnished. A withdrawn entry (recorded by mistake) stays listed and
// stops counting.
type LUT struct {
	ID          string
	UserID      string
	Livemode    bool
	ARN         string
	FY          string // "2026-27"
	FurnishedOn string // YYYY-MM-DD
	CreatedAt   time.Time
	WithdrawnAt *time.Time
}

const lutCols = `id, user_id, livemode, arn, fy, furnished_on, created_at, withdrawn_at`

func scanLUT(row interface{ Scan(...any) error }) (LUT, error) {
	var l LUT
	var created int64
	var withdrawn sql.NullInt64
	err := row.Scan(&l.ID, &l.UserID, &l.Livemode, &l.ARN, &l.FY, &l.FurnishedOn, &created, &withdrawn)
	l.CreatedAt, l.WithdrawnAt = fromMS(created), nullMS(withdrawn)
	return l, err
}

// RecordLUT writes a LUT the caller has validated, with its audit row and
// event. A year that already has one (not withdrawn) is apperr.ErrConflict.
func (g InvoicesTx) RecordLUT(l LUT) (LUT, error) {
	tx := g.tx
	l.ID, l.CreatedAt, l.WithdrawnAt = NewID("lut"), tx.now, nil
	_, err := tx.exec(`INSERT INTO luts (id, user_id, livemode, arn, fy, furnished_on, created_at) VALUES (?,?,?,?,?,?,?)`,
		l.ID, l.UserID, l.Livemode, l.ARN, l.FY, l.FurnishedOn, ms(l.CreatedAt))
	if isUniqueViolation(err) {
		return LUT{}, apperr.Errorf(apperr.ErrConflict, "a LUT for %s is already recorded; withdraw that entry first to record another", l.FY)
	}
	if err != nil {
		return LUT{}, err
	}
	return l, tx.lutChanged("lut.recorded", l)
}

// WithdrawLUT marks a LUT recorded by mistake withdrawn. Another user's is
// not found; a second withdrawal is apperr.ErrInvalidState.
func (g InvoicesTx) WithdrawLUT(userID, id string) (LUT, error) {
	tx := g.tx
	l, err := scanLUT(tx.queryRow("SELECT "+lutCols+" FROM luts WHERE id = ? AND user_id = ?", id, userID))
	if err != nil {
		return LUT{}, notFound(err, apperr.ErrNotFound, "LUT")
	}
	if l.WithdrawnAt != nil {
		return LUT{}, apperr.Errorf(apperr.ErrInvalidState, "LUT %s was already withdrawn at %s", l.ID, wire.Time(*l.WithdrawnAt))
	}
	now := tx.now
	if _, err := tx.exec("UPDATE luts SET withdrawn_at = ? WHERE id = ?", ms(now), l.ID); err != nil {
		return LUT{}, err
	}
	l.WithdrawnAt = &now
	return l, tx.lutChanged("lut.withdrawn", l)
}

func (tx *Tx) lutChanged(action string, l LUT) error {
	status := "recorded"
	if l.WithdrawnAt != nil {
		status = "withdrawn"
	}
	data := map[string]any{"lutId": l.ID, "arn": l.ARN, "fy": l.FY, "furnishedOn": l.FurnishedOn, "status": status}
	if err := tx.Audit(l.UserID, l.Livemode, action, "lut", l.ID, data); err != nil {
		return err
	}
	return tx.emit(l.UserID, l.Livemode, action, l.ID, data)
}

// FindLUT returns the user's LUT; another user's is not found.
func (g Invoices) FindLUT(ctx context.Context, userID, id string) (LUT, error) {
	db := g.db
	l, err := scanLUT(db.queryRow(ctx, "SELECT "+lutCols+" FROM luts WHERE id = ? AND user_id = ?", id, userID))
	return l, notFound(err, apperr.ErrNotFound, "LUT")
}

// ListLUTs returns every LUT of the user, withdrawn ones too, newest year
// first: a user furnishes one a year.
func (g Invoices) ListLUTs(ctx context.Context, userID string) ([]LUT, error) {
	db := g.db
	return luts(ctx, db.r, "WHERE user_id = ? ORDER BY fy DESC, created_at DESC", userID)
}

// LUTs returns the user's LUTs that count (not withdrawn).
func (s *Snapshot) LUTs(userID string) ([]LUT, error) {
	return luts(s.ctx, s.q, "WHERE user_id = ? AND withdrawn_at IS NULL ORDER BY fy", userID)
}

func luts(ctx context.Context, q reader, where string, args ...any) ([]LUT, error) {
	rows, err := q.QueryContext(ctx, "SELECT "+lutCols+" FROM luts "+where, args...)
	if err != nil {
		return nil, err
	}
	return scanLUTs(rows)
}

func scanLUTs(rows *sql.Rows) ([]LUT, error) {
	defer rows.Close()
	out := []LUT{}
	for rows.Next() {
		l, err := scanLUT(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, l)
	}
	return out, rows.Err()
}
