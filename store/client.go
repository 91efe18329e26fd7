package store

import (
	"context"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// Client is someone a user is paid by. Its name and country become the
// counterparty of the payouts made for it.
type Client struct {
	ID          string
	UserID      string
	Livemode    bool
	Name        string
	Country     string // ISO 3166-1 alpha-2, "" when not given
	Address     string
	Email       string
	PurposeCode string
	Currency    string // the currency it usually pays in, "" when not given
	Notes       string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

const clientCols = `id, user_id, livemode, name, country, address, email, purpose_code, currency, notes, created_at, updated_at`

func scanClient(row interface{ Scan(...any) error }) (Client, error) {
	var c Client
	var created, updated int64
	err := row.Scan(&c.ID, &c.UserID, &c.Livemode, &c.Name, &c.Country, &c.Address, &c.Email, &c.PurposeCode,
		&c.Currency, &c.Notes, &created, &updated)
	c.CreatedAt, c.UpdatedAt = fromMS(created), fromMS(updated)
	return c, err
}

// clientChanges are the fields of a client its audit rows record.
func clientChanges(c Client) map[string]any {
	return map[string]any{"name": c.Name, "country": c.Country, "address": c.Address, "email": c.Email,
		"purposeCode": c.PurposeCode, "currency": c.Currency, "notes": c.Notes}
}

// CreateClient records a new client of c.UserID.
func (g InvoicesTx) CreateClient(c Client) (Client, error) {
	tx := g.tx
	c.ID = NewID("cli")
	c.CreatedAt, c.UpdatedAt = tx.now, tx.now
	_, err := tx.exec(`INSERT INTO clients (`+clientCols+`) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`,
		c.ID, c.UserID, c.Livemode, c.Name, c.Country, c.Address, c.Email, c.PurposeCode, c.Currency, c.Notes,
		ms(tx.now), ms(tx.now))
	if err != nil {
		return Client{}, err
	}
	return c, tx.Audit(c.UserID, c.Livemode, "client.created", "client", c.ID, clientChanges(c))
}

// UpdateClient replaces the client's details with c's; payouts already
// made keep the counterparty they were made with.
func (g InvoicesTx) UpdateClient(c Client) (Client, error) {
	tx := g.tx
	old, err := tx.Invoices().FindClient(c.UserID, c.ID)
	if err != nil {
		return Client{}, err
	}
	c.Livemode, c.CreatedAt, c.UpdatedAt = old.Livemode, old.CreatedAt, tx.now
	_, err = tx.exec(`UPDATE clients SET name = ?, country = ?, address = ?, email = ?, purpose_code = ?, currency = ?,
		notes = ?, updated_at = ? WHERE id = ? AND user_id = ?`, c.Name, c.Country, c.Address, c.Email, c.PurposeCode,
		c.Currency, c.Notes, ms(tx.now), c.ID, c.UserID)
	if err != nil {
		return Client{}, err
	}
	return c, tx.Audit(c.UserID, c.Livemode, "client.updated", "client", c.ID, clientChanges(c))
}

// FindClient returns the user's client; another user's is not found.
func (g InvoicesTx) FindClient(userID, id string) (Client, error) {
	tx := g.tx
	c, err := scanClient(tx.queryRow("SELECT "+clientCols+" FROM clients WHERE id = ? AND user_id = ?", id, userID))
	return c, notFound(err, apperr.ErrNotFound, "client")
}

// FindClient reads the user's client outside a transaction.
func (g Invoices) FindClient(ctx context.Context, userID, id string) (Client, error) {
	db := g.db
	c, err := scanClient(db.r.QueryRowContext(ctx, "SELECT "+clientCols+" FROM clients WHERE id = ? AND user_id = ?", id, userID))
	return c, notFound(err, apperr.ErrNotFound, "client")
}

// ListClients returns all of the user's clients by name (a freelancer has
// tens, not thousands).
func (g Invoices) ListClients(ctx context.Context, userID string) ([]Client, error) {
	db := g.db
	rows, err := db.query(ctx, "SELECT "+clientCols+" FROM clients WHERE user_id = ? ORDER BY name COLLATE NOCASE, id", userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Client{}
	for rows.Next() {
		c, err := scanClient(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, rows.Err()
}

// ClientReceipts is what a client paid in a period: its settled payouts'
// count and their INR value at settlement.
type ClientReceipts struct {
	Count int
	INR   int64
}

// ClientReceiptsBetween sums the client's payouts settled in [from, to]
// (COMPLETED ones, valued in INR), through the index of its payouts.
func (g Invoices) ClientReceiptsBetween(ctx context.Context, userID, clientID string, from, to time.Time) (ClientReceipts, error) {
	db := g.db
	var r ClientReceipts
	err := db.queryRow(ctx, `SELECT count(*), coalesce(sum(amount_inr), 0) FROM payments
		WHERE user_id = ? AND client_id = ? AND client_id != '' AND status = ? AND settled_at BETWEEN ? AND ?`,
		userID, clientID, StatusCompleted, ms(from), ms(to)).Scan(&r.Count, &r.INR)
	return r, err
}
