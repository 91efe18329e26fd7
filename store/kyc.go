package store

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// KYC statuses.
const (
	KYCPending       = "PENDING"
	KYCInProgress    = "IN_PROGRESS"
	KYCDocsSubmitted = "DOCS_SUBMITTED"
	KYCUnderReview   = "UNDER_REVIEW"
	KYCApproved      = "APPROVED"
	KYCRejected      = "REJECTED"
)

// KYC is a user's verification record. Which moves it may make is the kyc
// package's rule; the store records the moves it is handed.
type KYC struct {
	UserID    string
	Status    string
	Attempts  int
	SessionID string
	Reason    string
	UpdatedAt time.Time // the last move
}

const kycQuery = "SELECT status, attempts, session_id, reason, updated_at FROM kyc WHERE user_id = ?"

func scanKYC(userID string, row interface{ Scan(...any) error }) (KYC, error) {
	k := KYC{UserID: userID}
	var updated int64
	err := row.Scan(&k.Status, &k.Attempts, &k.SessionID, &k.Reason, &updated)
	k.UpdatedAt = fromMS(updated)
	return k, notFound(err, apperr.ErrNotFound, "kyc record")
}

// KYCStatus reads a user's KYC record.
func (g People) KYCStatus(ctx context.Context, userID string) (KYC, error) {
	db := g.db
	return scanKYC(userID, db.r.QueryRowContext(ctx, kycQuery, userID))
}

// KYCStatus reads a user's KYC record inside a transaction.
func (g PeopleTx) KYCStatus(userID string) (KYC, error) {
	tx := g.tx
	return rememberedSetting(tx, settingsKYC, userID, func(c *settingsCache) *map[string]KYC { return &c.kyc },
		func() (KYC, error) { return scanKYC(userID, tx.queryRow(kycQuery, userID)) })
}

// KYCMove is one move of a KYC record: the record as read (From), as it
// is to be written (To), and the moves To allows next, which its
// kyc.updated event tells subscribers.
type KYCMove struct {
	From, To    KYC
	AllowedNext []string
	Livemode    bool
}

// RecordKYCMove is the only writer of kyc.status: it writes m.To over the
// record if the record is still m.From's status, and audits and emits
// kyc.updated in the caller's transaction. A record that moved since it
// was read is ErrInvalidState and nothing is written.
func (g PeopleTx) RecordKYCMove(m KYCMove) (KYC, error) {
	tx := g.tx
	from, k := m.From.Status, m.To
	k.UpdatedAt = tx.now
	res, err := tx.exec("UPDATE kyc SET status = ?, attempts = ?, reason = ?, updated_at = ? WHERE user_id = ? AND status = ?",
		k.Status, k.Attempts, k.Reason, ms(tx.now), k.UserID, from)
	if err != nil {
		return m.From, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return m.From, err
	} else if n != 1 {
		return m.From, apperr.Errorf(apperr.ErrInvalidState, "KYC changed concurrently; read it again")
	}
	changes := map[string]any{"from": from, "to": k.Status, "attempts": k.Attempts}
	if k.Reason != "" {
		changes["reason"] = k.Reason
	}
	if err := tx.Audit(k.UserID, m.Livemode, "kyc.updated", "kyc", k.UserID, changes); err != nil {
		return k, err
	}
	allowed := m.AllowedNext
	if allowed == nil {
		allowed = []string{}
	}
	data := map[string]any{"userId": k.UserID, "status": k.Status, "previousStatus": from, "allowedTransitions": allowed}
	if k.Reason != "" {
		data["reason"] = k.Reason
	}
	return k, tx.emit(k.UserID, m.Livemode, "kyc.updated", k.UserID, data)
}

// UserLivemode reads whether a user is a live one.
func (g PeopleTx) UserLivemode(userID string) (bool, error) {
	tx := g.tx
	var livemode bool
	err := tx.queryRow("SELECT livemode FROM users WHERE id = ?", userID).Scan(&livemode)
	return livemode, notFound(err, apperr.ErrNotFound, "user")
}
