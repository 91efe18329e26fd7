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
func (tx *Tx) CreateConsoleLink(u User) (token string, expires time.Time, err error) {
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
func (tx *Tx) UseConsoleLink(token string) (User, error) {
	var u User
	var expires int64
	var used sql.NullInt64
	err := tx.queryRow(`SELECT l.user_id, u.email, u.livemode, l.expires_at, l.used_at
		FROM console_links l JOIN users u ON u.id = l.user_id WHERE l.token_hash = ?`, HashSecret(token)).
		Scan(&u.ID, &u.Email, &u.Livemode, &expires, &used)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return u, apperr.Errorf(apperr.ErrUnauthorized, "this sign-in link is not valid")
	case err != nil:
		return u, err
	case used.Valid:
		return u, apperr.Errorf(apperr.ErrUnauthorized, "this sign-in link was already used; a link works once")
	case tx.now.UnixMilli() >= expires:
		return u, apperr.Errorf(apperr.ErrUnauthorized, "this sign-in link has expired; links work for 15 minutes")
	}
	res, err := tx.exec("UPDATE console_links SET used_at = ? WHERE token_hash = ? AND used_at IS NULL",
		ms(tx.now), HashSecret(token))
	if err != nil {
		return u, err
	}
	if n, _ := res.RowsAffected(); n != 1 {
		return u, apperr.Errorf(apperr.ErrUnauthorized, "this sign-in link was already used; a link works once")
	}
	return u, tx.Audit(u.ID, u.Livemode, "console.signed_in", "user", u.ID, nil)
}

// FindUser reads a user by id.
func (db *DB) FindUser(ctx context.Context, id string) (User, error) {
	u := User{ID: id}
	err := db.r.QueryRowContext(ctx, "SELECT email, livemode FROM users WHERE id = ?", id).Scan(&u.Email, &u.Livemode)
	return u, notFound(err, apperr.ErrNotFound, "user")
}
