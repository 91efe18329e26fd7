package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/base64"
	"errors"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// ConsoleLinkTTL is how long a console sign-in link works.
const ConsoleLinkTTL = 15 * time.Minute

// CreateConsoleLink makes a one-time sign-in token for the user, valid for
// ConsoleLinkTTL. Only its hash is stored; the token is shown once.
func (g KeysTx) CreateConsoleLink(u User) (token string, expires time.Time, err error) {
	tx := g.tx
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", time.Time{}, err
	}
	token = base64.RawURLEncoding.EncodeToString(b)
	expires = tx.now.Add(ConsoleLinkTTL)
	_, err = tx.exec("INSERT INTO console_links (token_hash, user_id, created_at, expires_at) VALUES (?,?,?,?)",
		HashSecret(token), u.ID, ms(tx.now), ms(expires))
	if err != nil {
		return "", time.Time{}, err
	}
	return token, expires, tx.Audit(u.ID, u.Livemode, "console.link_created", "user", u.ID, map[string]any{"expiresAt": expires})
}

// UseConsoleLink spends a sign-in token and returns its user. A token that
// is unknown, already used or expired is refused (ErrUnauthorized, with a
// message saying which), and refused again however often it is presented.
func (g KeysTx) UseConsoleLink(token string) (User, error) {
	tx := g.tx
	u, err := consoleLinkUser(tx.queryRow(consoleLinkQuery, HashSecret(token)), tx.now)
	if err != nil {
		return u, err
	}
	res, err := tx.exec("UPDATE console_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
		ms(tx.now), HashSecret(token))
	if err != nil {
		return u, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return u, errLinkUsed()
	}
	return u, tx.Audit(u.ID, u.Livemode, "console.signed_in", "user", u.ID, nil)
}

// CheckConsoleLink says whether a sign-in token would be accepted now,
// without spending it: the refusals are UseConsoleLink's.
func (g Keys) CheckConsoleLink(ctx context.Context, token string) error {
	db := g.db
	_, err := consoleLinkUser(db.r.QueryRowContext(ctx, consoleLinkQuery, HashSecret(token)), db.Now())
	return err
}

const consoleLinkQuery = `SELECT l.user_id, u.email, u.livemode, l.expires_at, l.used_at
	FROM console_links l JOIN users u ON u.id = l.user_id WHERE l.token_hash = ?`

func errLinkUsed() error {
	return apperr.Errorf(apperr.ErrUnauthorized, "this sign-in link was already used; a link works once")
}

// consoleLinkUser reads a link's row (consoleLinkQuery) and refuses a link
// that is unknown, used or expired at now.
func consoleLinkUser(row rowScanner, now time.Time) (User, error) {
	var u User
	var expires int64
	var used sql.NullInt64
	err := row.Scan(&u.ID, &u.Email, &u.Livemode, &expires, &used)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return u, apperr.Errorf(apperr.ErrUnauthorized, "this sign-in link is not valid")
	case err != nil:
		return u, err
	case used.Valid:
		return u, errLinkUsed()
	case now.UnixMilli() >= expires:
		return u, apperr.Errorf(apperr.ErrUnauthorized, "this sign-in link has expired; links work for 15 minutes")
	}
	return u, nil
}

// FindUser reads a user by id.
func (g People) FindUser(ctx context.Context, id string) (User, error) {
	db := g.db
	u := User{ID: id}
	err := db.r.QueryRowContext(ctx, "SELECT email, livemode FROM users WHERE id = ?", id).Scan(&u.Email, &u.Livemode)
	return u, notFound(err, apperr.ErrNotFound, "user")
}
