package store

import (
	"context"
	"strings"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// KYCReviewRow is one user in the operator's KYC list.
type KYCReviewRow struct {
	UserID    string
	Email     string
	Livemode  bool
	Status    string
	Attempts  int
	Reason    string
	FullName  string
	UpdatedAt time.Time
}

// ListKYC lists the mode's KYC records in any of statuses for the
// operator, oldest change first (who has waited longest).
func (g People) ListKYC(ctx context.Context, livemode bool, statuses ...string) ([]KYCReviewRow, error) {
	db := g.db
	args := []any{livemode}
	for _, s := range statuses {
		args = append(args, s)
	}
	rows, err := db.query(ctx, `SELECT u.id, u.email, u.livemode, k.status, k.attempts, k.reason, k.full_name, k.updated_at
		FROM kyc k JOIN users u ON u.id = k.user_id WHERE u.livemode = ? AND k.status IN (`+strings.TrimSuffix(strings.Repeat("?, ", len(statuses)), ", ")+`)
		ORDER BY k.updated_at, u.id`, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []KYCReviewRow
	for rows.Next() {
		var r KYCReviewRow
		var updated int64
		if err := rows.Scan(&r.UserID, &r.Email, &r.Livemode, &r.Status, &r.Attempts, &r.Reason, &r.FullName, &updated); err != nil {
			return nil, err
		}
		r.UpdatedAt = fromMS(updated)
		out = append(out, r)
	}
	return out, rows.Err()
}

// FindKYCUser resolves an operator's USER_ID or EMAIL in the mode.
func (g People) FindKYCUser(ctx context.Context, ref string, livemode bool) (User, error) {
	db := g.db
	if strings.Contains(ref, "@") {
		return db.People().FindUserByEmail(ctx, ref, livemode)
	}
	u := User{ID: ref}
	err := db.queryRow(ctx, "SELECT email, livemode FROM users WHERE id = ?", ref).Scan(&u.Email, &u.Livemode)
	return u, notFound(err, apperr.ErrNotFound, "user")
}

// KYCDocuments lists a user's uploaded documents, oldest first.
func (g People) KYCDocuments(ctx context.Context, userID string) ([]KYCDocument, error) {
	db := g.db
	rows, err := db.query(ctx, `SELECT id, kind, filename, content_type, size, sha256, created_at FROM kyc_documents
		WHERE user_id = ? ORDER BY created_at, id`, userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []KYCDocument
	for rows.Next() {
		var d KYCDocument
		var created int64
		if err := rows.Scan(&d.ID, &d.Kind, &d.Filename, &d.ContentType, &d.Size, &d.SHA256, &created); err != nil {
			return nil, err
		}
		d.CreatedAt = fromMS(created)
		out = append(out, d)
	}
	return out, rows.Err()
}

// OpenKYCDocument returns a document's file, unsealed, after checking it
// against the SHA-256 recorded at upload.
func (g People) OpenKYCDocument(ctx context.Context, doc KYCDocument, sealer *Sealer) ([]byte, error) {
	db := g.db
	var sealed []byte
	if err := db.queryRow(ctx, "SELECT data FROM kyc_documents WHERE id = ?", doc.ID).Scan(&sealed); err != nil {
		return nil, notFound(err, apperr.ErrNotFound, "document")
	}
	if sealer == nil {
		return nil, errNoSealer
	}
	return sealer.Open(sealed, []byte(doc.ID))
}
