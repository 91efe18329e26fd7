package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

var errNoSealer = errors.New("store: no master key to seal documents with")

// KYCDocument is an uploaded identity document (the file itself is stored
// sealed and never read back by the API).
type KYCDocument struct {
	ID          string
	Kind        string
	Filename    string
	ContentType string
	Size        int
	SHA256      string
	CreatedAt   time.Time
}

// SubmitKYCDocument stores the document sealed under the master key (ad =
// its id, so a blob copied to another row does not open) with the SHA-256 of
// the plaintext, and moves the record to DOCS_SUBMITTED in the same
// transaction. Identity details must have been given on this link first.
func (tx *Tx) SubmitKYCDocument(sessionID string, doc KYCDocument, data []byte, sealer *Sealer) (KYC, KYCDocument, error) {
	if sealer == nil {
		return KYC{}, doc, errNoSealer
	}
	s, k, err := tx.openForSubmit(sessionID)
	if err != nil {
		return k, doc, err
	}
	if err := canSubmit(s, k); err != nil {
		return k, doc, err
	}
	if s.IdentityAt == nil {
		return k, doc, apperr.Errorf(apperr.ErrInvalidState, "identity details come before the document")
	}
	sum := sha256.Sum256(data)
	doc.ID, doc.Size, doc.SHA256, doc.CreatedAt = NewID("kdoc"), len(data), hex.EncodeToString(sum[:]), tx.now
	if _, err := tx.exec(`INSERT INTO kyc_documents (id, user_id, session_id, filename, content_type, size, kind, sha256, data, created_at)
		VALUES (?,?,?,?,?,?,?,?,?,?)`, doc.ID, s.UserID, s.ID, doc.Filename, doc.ContentType, doc.Size, doc.Kind, doc.SHA256,
		sealer.Seal(data, []byte(doc.ID)), ms(tx.now)); err != nil {
		return k, doc, err
	}
	if _, err := tx.exec("UPDATE kyc_sessions SET submitted_at = ? WHERE id = ?", ms(tx.now), s.ID); err != nil {
		return k, doc, err
	}
	if err := tx.Audit(s.UserID, s.Livemode, "kyc.document_uploaded", "kyc_document", doc.ID, map[string]any{
		"kind": doc.Kind, "content_type": doc.ContentType, "size": doc.Size, "sha256": doc.SHA256, "session_id": s.ID,
	}); err != nil {
		return k, doc, err
	}
	if k, err = tx.moveKYC(k, s.Livemode, KYCDocsSubmitted, ""); err != nil || s.Livemode {
		return k, doc, err
	}
	return k, doc, tx.enqueueSandboxReview(s.UserID)
}
