package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"
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

// AddKYCDocument stores the document given on link s sealed under the
// master key (ad = its id, so a blob copied to another row does not open)
// with the SHA-256 of the plaintext, marks the link used for a submission
// and audits the upload, in the caller's transaction.
func (g PeopleTx) AddKYCDocument(s KYCSession, doc KYCDocument, data []byte, sealer *Sealer) (KYCDocument, error) {
	tx := g.tx
	if sealer == nil {
		return doc, errNoSealer
	}
	sum := sha256.Sum256(data)
	doc.ID, doc.Size, doc.SHA256, doc.CreatedAt = NewID("kdoc"), len(data), hex.EncodeToString(sum[:]), tx.now
	if _, err := tx.exec(`INSERT INTO kyc_documents (id, user_id, session_id, filename, content_type, size, kind, sha256, data, created_at)
		VALUES (?,?,?,?,?,?,?,?,?,?)`, doc.ID, s.UserID, s.ID, doc.Filename, doc.ContentType, doc.Size, doc.Kind, doc.SHA256,
		sealer.Seal(data, []byte(doc.ID)), ms(tx.now)); err != nil {
		return doc, err
	}
	if _, err := tx.exec("UPDATE kyc_sessions SET submitted_at = ? WHERE id = ?", ms(tx.now), s.ID); err != nil {
		return doc, err
	}
	return doc, tx.Audit(s.UserID, s.Livemode, "kyc.document_uploaded", "kyc_document", doc.ID, map[string]any{
		"kind": doc.Kind, "content_type": doc.ContentType, "size": doc.Size, "sha256": doc.SHA256, "session_id": s.ID,
	})
}
