package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base32"
	"slices"
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

// KYCStart is the outcome of POST /kyc/start. Started is false, with no
// session, when there is nothing to start (APPROVED, or already in review).
type KYCStart struct {
	KYC     KYC
	Session KYCSession
	Started bool
	Message string
}

// StartKYC begins or resumes verification: PENDING moves to
// IN_PROGRESS; IN_PROGRESS and REJECTED (with resubmissions left) get a
// link without moving, since the upload is what moves them. An unclaimed,
// unexpired link is handed out again so repeated calls give the same URL.
func (tx *Tx) StartKYC(userID string, livemode bool) (KYCStart, error) {
	k, err := tx.KYCStatus(userID)
	if err != nil {
		return KYCStart{}, err
	}
	out := KYCStart{KYC: k}
	switch k.Status {
	case KYCApproved:
		out.Message = "KYC is already approved; there is nothing to start"
		return out, nil
	case KYCDocsSubmitted, KYCUnderReview:
		out.Message = "documents are submitted and being reviewed; wait for the decision"
		return out, nil
	case KYCRejected:
		if len(k.AllowedTransitions()) == 0 {
			return out, apperr.Errorf(apperr.ErrInvalidState, "KYC was rejected and all %d resubmissions are used", MaxKYCAttempts)
		}
		out.Message = "resubmission started: open redirectUrl to send new details and documents"
	case KYCPending:
		if k, err = tx.moveKYC(k, livemode, KYCInProgress, ""); err != nil {
			return out, err
		}
		out.KYC = k
		out.Message = "verification started: open redirectUrl to continue"
	default:
		out.Message = "verification in progress: open redirectUrl to continue"
	}
	if cur, err := tx.findKYCSession(k.SessionID); err == nil && cur.ClaimedAt == nil && !cur.Expired(tx.now) {
		out.Session, out.Started = cur, true
		return out, nil
	} else if err != nil && apperr.Code(err) != apperr.ErrNotFound {
		return out, err
	}
	out.Session, err = tx.newKYCSession(userID, livemode)
	out.Started = err == nil
	return out, err
}

// newSessionID is a capability in a URL, so it carries 160 random bits and,
// unlike NewID, no creation time.
func newSessionID() string {
	b := make([]byte, 20)
	if _, err := rand.Read(b); err != nil {
		panic("crypto/rand failed: " + err.Error())
	}
	return "kys_" + strings.ToLower(base32.StdEncoding.WithPadding(base32.NoPadding).EncodeToString(b))
}

func (tx *Tx) newKYCSession(userID string, livemode bool) (KYCSession, error) {
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

func (tx *Tx) findKYCSession(id string) (KYCSession, error) {
	return scanKYCSession(tx.queryRow(kycSessionQuery, id))
}

// FindKYCSession reads a link outside a transaction.
func (db *DB) FindKYCSession(ctx context.Context, id string) (KYCSession, error) {
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
func (tx *Tx) ClaimKYCSession(s KYCSession) (bool, error) {
	res, err := tx.exec("UPDATE kyc_sessions SET claimed_at = ? WHERE id = ? AND claimed_at IS NULL", ms(tx.now), s.ID)
	if err != nil {
		return false, err
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		return false, err
	}
	return true, tx.Audit(s.UserID, s.Livemode, "kyc.session_claimed", "kyc_session", s.ID, nil)
}

// moveKYC is the only writer of kyc.status: it refuses moves outside the
// state machine, counts resubmissions, and audits and emits kyc.updated in
// the caller's transaction.
func (tx *Tx) moveKYC(k KYC, livemode bool, to, reason string) (KYC, error) {
	if !slices.Contains(k.AllowedTransitions(), to) {
		return k, apperr.Errorf(apperr.ErrInvalidState, "KYC cannot move from %s to %s", k.Status, to)
	}
	from := k.Status
	if from == KYCRejected {
		k.Attempts++
	}
	if to != KYCRejected {
		reason = ""
	}
	k.Status, k.Reason = to, reason
	res, err := tx.exec("UPDATE kyc SET status = ?, attempts = ?, reason = ?, updated_at = ? WHERE user_id = ? AND status = ?",
		to, k.Attempts, reason, ms(tx.now), k.UserID, from)
	if err != nil {
		return k, err
	}
	if n, err := res.RowsAffected(); err != nil {
		return k, err
	} else if n != 1 {
		return k, apperr.Errorf(apperr.ErrInvalidState, "KYC changed concurrently; read it again")
	}
	changes := map[string]any{"from": from, "to": to, "attempts": k.Attempts}
	if reason != "" {
		changes["reason"] = reason
	}
	if err := tx.Audit(k.UserID, livemode, "kyc.updated", "kyc", k.UserID, changes); err != nil {
		return k, err
	}
	data := map[string]any{"userId": k.UserID, "status": to, "previousStatus": from, "allowedTransitions": k.AllowedTransitions()}
	if reason != "" {
		data["reason"] = reason
	}
	return k, tx.emit(k.UserID, livemode, "kyc.updated", k.UserID, data)
}

// openForSubmit re-reads the link and its KYC record inside the writing
// transaction, so two tabs submitting at once cannot both pass the checks.
func (tx *Tx) openForSubmit(sessionID string) (KYCSession, KYC, error) {
	s, err := tx.findKYCSession(sessionID)
	if err != nil {
		return s, KYC{}, err
	}
	k, err := tx.KYCStatus(s.UserID)
	return s, k, err
}

// canSubmit reports whether the link may still take identity details and a
// document: the record accepts DOCS_SUBMITTED next and this link has not
// been used for a submission yet (a rejected one needs a new link).
func canSubmit(s KYCSession, k KYC) error {
	if s.SubmittedAt != nil || !slices.Contains(k.AllowedTransitions(), KYCDocsSubmitted) {
		return apperr.Errorf(apperr.ErrInvalidState, "this verification link no longer accepts submissions (KYC is %s)", k.Status)
	}
	return nil
}

// KYCIdentity is what the first step of the hosted page collects.
type KYCIdentity struct {
	FullName string
	PAN      string
	DOB      string // YYYY-MM-DD
}

// SaveKYCIdentity stores the identity details given on the hosted page. The
// audit row names the fields only: the log is append-only and must not hold
// personal data that may one day have to be erased.
func (tx *Tx) SaveKYCIdentity(sessionID string, id KYCIdentity) error {
	s, k, err := tx.openForSubmit(sessionID)
	if err != nil {
		return err
	}
	if err := canSubmit(s, k); err != nil {
		return err
	}
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
func (tx *Tx) KYCIdentityOf(userID string) (KYCIdentity, error) {
	var id KYCIdentity
	err := tx.queryRow("SELECT full_name, pan, dob FROM kyc WHERE user_id = ?", userID).Scan(&id.FullName, &id.PAN, &id.DOB)
	return id, notFound(err, apperr.ErrNotFound, "kyc record")
}

// KYCIdentityOf reads the identity details outside a transaction.
func (db *DB) KYCIdentityOf(ctx context.Context, userID string) (KYCIdentity, error) {
	var id KYCIdentity
	err := db.r.QueryRowContext(ctx, "SELECT full_name, pan, dob FROM kyc WHERE user_id = ?", userID).Scan(&id.FullName, &id.PAN, &id.DOB)
	return id, notFound(err, apperr.ErrNotFound, "kyc record")
}
