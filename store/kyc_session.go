package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base32"
	"strings"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// KYCSessionTTL is how long a hosted verification link stays usable.
const KYCSessionTTL = 24 * time.Hour

// KYCSession is one hosted verification link. Only the user's newest session
// (kyc.session_id) is usable; it binds to the first browser that opens it.
type KYCSession struct {
	ID          string
	UserID      string
	Livemode    bool
	CreatedAt   time.Time
	ExpiresAt   time.Time
	ClaimedAt   *time.Time
	IdentityAt  *time.Time
	SubmittedAt *time.Time
}

// Expired reports whether the link is past its lifetime at now.
func (s KYCSession) Expired(now time.Time) bool { return !now.Before(s.ExpiresAt) }

// newSessionID is a capability in a URL, so it carries 160 random bits and,
// unlike NewID, no creation time.
func newSessionID() string {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return "kys_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

// NewKYCSession makes a new link the user's only usable one.
func (g PeopleTx) NewKYCSession(userID string, livemode bool) (KYCSession, error) {
	tx := g.tx
	s := KYCSession{ID: newSessionID(), UserID: userID, Livemode: livemode, CreatedAt: tx.now, ExpiresAt: tx.now.Add(KYCSessionTTL)}
	if _, err := tx.exec("INSERT INTO kyc_sessions (id, user_id, created_at, expires_at) VALUES (?,?,?,?)",
		s.ID, userID, ms(s.CreatedAt), ms(s.ExpiresAt)); err != nil {
		return s, err
	}
	if _, err := tx.exec("UPDATE kyc SET session_id = ? WHERE user_id = ?", s.ID, userID); err != nil {
		return s, err
	}
	return s, tx.Audit(userID, livemode, "kyc.session_created", "kyc_session", s.ID, map[string]any{"expires_at": ms(s.ExpiresAt)})
}

// FindKYCSession reads a link inside a transaction.
func (g PeopleTx) FindKYCSession(id string) (KYCSession, error) {
	tx := g.tx
	return scanKYCSession(tx.queryRow(kycSessionQuery, id))
}

// FindKYCSession reads a link outside a transaction.
func (g People) FindKYCSession(ctx context.Context, id string) (KYCSession, error) {
	db := g.db
	return scanKYCSession(db.r.QueryRowContext(ctx, kycSessionQuery, id))
}

const kycSessionQuery = `SELECT s.id, s.user_id, u.livemode, s.created_at, s.expires_at, s.claimed_at, s.identity_at, s.submitted_at
		FROM kyc_sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?`

func scanKYCSession(row interface{ Scan(...any) error }) (KYCSession, error) {
	var s KYCSession
	var created, expires int64
	var claimed, identity, submitted sql.NullInt64
	err := row.Scan(&s.ID, &s.UserID, &s.Livemode, &created, &expires, &claimed, &identity, &submitted)
	s.CreatedAt, s.ExpiresAt = fromMS(created), fromMS(expires)
	s.ClaimedAt, s.IdentityAt, s.SubmittedAt = nullMS(claimed), nullMS(identity), nullMS(submitted)
	return s, notFound(err, apperr.ErrNotFound, "verification session")
}

// ClaimKYCSession binds an unclaimed link to the browser opening it; false
// means another browser got there first.
func (g PeopleTx) ClaimKYCSession(s KYCSession) (bool, error) {
	tx := g.tx
	res, err := tx.exec("UPDATE kyc_sessions SET claimed_at = ? WHERE id = ? AND claimed_at IS NULL", ms(tx.now), s.ID)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return false, err
	}
	return true, tx.Audit(s.UserID, s.Livemode, "kyc.session_claimed", "kyc_session", s.ID, nil)
}

// KYCIdentity is what the first step of the hosted page collects.
type KYCIdentity struct {
	FullName string
	PAN      string
	DOB      string // YYYY-MM-DD
}

// SaveKYCIdentity stores the identity details given on the hosted page's
// link s. The audit row names the fields only: the log is append-only and
// must not hold personal data that may one day have to be erased.
func (g PeopleTx) SaveKYCIdentity(s KYCSession, id KYCIdentity) error {
	tx := g.tx
	if _, err := tx.exec("UPDATE kyc SET full_name = ?, pan = ?, dob = ? WHERE user_id = ?",
		id.FullName, id.PAN, id.DOB, s.UserID); err != nil {
		return err
	}
	if _, err := tx.exec("UPDATE kyc_sessions SET identity_at = ? WHERE id = ?", ms(tx.now), s.ID); err != nil {
		return err
	}
	return tx.Audit(s.UserID, s.Livemode, "kyc.identity_submitted", "kyc_session", s.ID, map[string]any{"fields": []string{"full_name", "pan", "dob"}})
}

// KYCIdentityOf reads the identity details last given, to prefill the form.
func (g PeopleTx) KYCIdentityOf(userID string) (KYCIdentity, error) {
	tx := g.tx
	var id KYCIdentity
	err := tx.queryRow("SELECT full_name, pan, dob FROM kyc WHERE user_id = ?", userID).Scan(&id.FullName, &id.PAN, &id.DOB)
	return id, notFound(err, apperr.ErrNotFound, "kyc record")
}

// KYCIdentityOf reads the identity details outside a transaction.
func (g People) KYCIdentityOf(ctx context.Context, userID string) (KYCIdentity, error) {
	db := g.db
	var id KYCIdentity
	err := db.r.QueryRowContext(ctx, "SELECT full_name, pan, dob FROM kyc WHERE user_id = ?", userID).Scan(&id.FullName, &id.PAN, &id.DOB)
	return id, notFound(err, apperr.ErrNotFound, "kyc record")
}
