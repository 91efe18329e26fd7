package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"github.com/payoutd/payoutd/apperr"
)

// User is one account in one mode (sandbox or live).
type User struct {
	ID       string
	Email    string
	Livemode bool
}

// SandboxOpeningBalance is what a new sandbox user's default USD vault holds:
// 100,000.00 USD in cents.
const SandboxOpeningBalance = 100_000_00

// EnsureUser returns the user for email in the given mode, creating it with a
// profile, a PENDING KYC record and a default USD vault when it is new. A
// non-empty name completes profile setup.
func (g PeopleTx) EnsureUser(email string, livemode bool, name string, sealer *Sealer) (User, bool, error) {
	tx := g.tx
	email = strings.ToLower(strings.TrimSpace(email))
	u := User{Email: email, Livemode: livemode}
	err := tx.queryRow("SELECT id FROM users WHERE email = ? AND livemode = ?", email, livemode).Scan(&u.ID)
	if err == nil {
		if name != "" {
			_, err = tx.exec("UPDATE profiles SET name = ?, setup_completed = 1, updated_at = ? WHERE user_id = ?", name, ms(tx.now), u.ID)
		}
		return u, false, err
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return u, false, err
	}
	u.ID = NewID("usr")
	now := ms(tx.now)
	if _, err := tx.exec("INSERT INTO users (id, email, livemode, created_at) VALUES (?,?,?,?)", u.ID, email, livemode, now); err != nil {
		return u, false, err
	}
	if _, err := tx.exec(`INSERT INTO profiles (user_id, email, name, setup_completed, created_at, updated_at)
		VALUES (?,?,?,?,?,?)`, u.ID, email, name, name != "", now, now); err != nil {
		return u, false, err
	}
	if _, err := tx.exec("INSERT INTO kyc (user_id, status, updated_at) VALUES (?, 'PENDING', ?)", u.ID, now); err != nil {
		return u, false, err
	}
	for _, kind := range []string{AccountSettlement, AccountTaxReserve} {
		if _, err := tx.ledgerAccount(u.ID, livemode, kind, "INR", ""); err != nil {
			return u, false, err
		}
	}
	opening := int64(0)
	if !livemode {
		opening = SandboxOpeningBalance
	}
	if _, err := tx.Vaults().CreateVault(u, "Default USD vault", "USD", opening, true, sealer); err != nil {
		return u, false, err
	}
	if err := tx.Audit(u.ID, livemode, "user.created", "user", u.ID, map[string]any{"email": email}); err != nil {
		return u, false, err
	}
	return u, true, nil
}

// FindUserByEmail looks a user up by e-mail and mode.
func (g People) FindUserByEmail(ctx context.Context, email string, livemode bool) (User, error) {
	db := g.db
	u := User{Email: strings.ToLower(strings.TrimSpace(email)), Livemode: livemode}
	err := db.r.QueryRowContext(ctx, "SELECT id FROM users WHERE email = ? AND livemode = ?", u.Email, livemode).Scan(&u.ID)
	return u, notFound(err, apperr.ErrNotFound, "user")
}

// CountUsers reports how many users exist (first start creates a demo user).
func (g People) CountUsers(ctx context.Context) (int, error) {
	db := g.db
	var n int
	err := db.r.QueryRowContext(ctx, "SELECT count(*) FROM users").Scan(&n)
	return n, err
}
