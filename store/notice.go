package store

import (
	"context"
	"database/sql"
	"time"

	"github.com/payoutd/payoutd/apperr"
)

// Notice is something a user is told in the console and, unless they opted
// out of its kind, by e-mail: written once per occasion.
type Notice struct {
	ID       string
	UserID   string
	Livemode bool
	Kind     string
	// Occasion makes the notice unique for its user: the event it was made
	// from, or a dated occasion such as one advance-tax instalment.
	Occasion  string
	Title     string
	Body      string
	Link      string // a console path, "" when there is nothing to open
	CreatedAt time.Time
	ReadAt    *time.Time
	MailedAt  *time.Time
}

const noticeCols = `id, user_id, livemode, kind, occasion, title, body, link, created_at, read_at, mailed_at`

func scanNotice(row interface{ Scan(...any) error }) (Notice, error) {
	var n Notice
	var created int64
	var read, mailed sql.NullInt64
	err := row.Scan(&n.ID, &n.UserID, &n.Livemode, &n.Kind, &n.Occasion, &n.Title, &n.Body, &n.Link, &created, &read, &mailed)
	n.CreatedAt, n.ReadAt, n.MailedAt = fromMS(created), nullMS(read), nullMS(mailed)
	return n, err
}

// AddNotice writes n unless its user already has a notice of the same
// occasion; added says whether it was written now (n then has its id).
func (tx *Tx) AddNotice(n *Notice) (added bool, err error) {
	n.ID, n.CreatedAt = NewID("ntc"), tx.now
	res, err := tx.exec(`INSERT INTO notices (id, user_id, livemode, kind, occasion, title, body, link, created_at)
		VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT (user_id, occasion) DO NOTHING`,
		n.ID, n.UserID, n.Livemode, n.Kind, n.Occasion, n.Title, n.Body, n.Link, ms(tx.now))
	if err != nil {
		return false, err
	}
	k, err := res.RowsAffected()
	return k == 1, err
}

// AddEventNotice writes the notice of an event (its Occasion the event's
// id, which no other notice has) when the transaction's batch commits,
// with the event (log_rows.go); n gets its id now.
func (tx *Tx) AddEventNotice(n *Notice) {
	n.ID, n.CreatedAt = NewID("ntc"), tx.now
	tx.noticeRows = append(tx.noticeRows, n.ID, n.UserID, n.Livemode, n.Kind, n.Occasion, n.Title, n.Body, n.Link, ms(tx.now))
}

// FindNotice reads one notice, whoever owns it (the mail worker).
func (db *DB) FindNotice(ctx context.Context, id string) (Notice, error) {
	n, err := scanNotice(db.queryRow(ctx, "SELECT "+noticeCols+" FROM notices WHERE id = ?", id))
	return n, notFound(err, apperr.ErrNotFound, "notice")
}

// NoticeMailed records that the notice's e-mail was accepted by the mail
// server.
func (tx *Tx) NoticeMailed(id string) error {
	_, err := tx.exec("UPDATE notices SET mailed_at = ? WHERE id = ? AND mailed_at IS NULL", ms(tx.now), id)
	return err
}

var noticeOrder = keyset{from: "notices", id: "id", keys: []string{"rowid"}, unique: true}

// NoticeFilter selects a page of a user's notices, newest first.
type NoticeFilter struct {
	UserID string
	After  string // a notice id; only older notices are listed
	Limit  int
}

// ListNotices returns up to f.Limit of the user's notices, newest first,
// and one more when another page follows.
func (db *DB) ListNotices(ctx context.Context, f NoticeFilter) ([]Notice, error) {
	where, args := "user_id = ?", []any{f.UserID}
	if f.After != "" {
		cond, cargs, err := db.afterCursor(ctx, noticeOrder, f.After, "user_id = ?", []any{f.UserID})
		if err != nil {
			return nil, err
		}
		where += " AND " + cond
		args = append(args, cargs...)
	}
	rows, err := db.query(ctx, "SELECT "+noticeCols+" FROM notices WHERE "+where+noticeOrder.orderBy()+" LIMIT ?",
		append(args, f.Limit+1)...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []Notice{}
	for rows.Next() {
		n, err := scanNotice(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, rows.Err()
}

// UnreadNotices counts the user's unread notices up to most: the header
// shows "99+" beyond, and counting no further keeps every page fast.
func (db *DB) UnreadNotices(ctx context.Context, userID string, most int) (int, error) {
	var n int
	err := db.queryRow(ctx, "SELECT count(*) FROM (SELECT 1 FROM notices WHERE user_id = ? AND read_at IS NULL LIMIT ?)",
		userID, most).Scan(&n)
	return n, err
}

// MarkNoticesRead marks the user's notices up to and including upTo read
// (the newest the user was shown), so one that arrived since stays unread.
// It reports how many it marked.
func (tx *Tx) MarkNoticesRead(userID string, livemode bool, upTo string) (int64, error) {
	var seq int64
	err := tx.queryRow("SELECT rowid FROM notices WHERE id = ? AND user_id = ?", upTo, userID).Scan(&seq)
	if err != nil {
		return 0, notFound(err, apperr.ErrNotFound, "notice")
	}
	res, err := tx.exec("UPDATE notices SET read_at = ? WHERE user_id = ? AND read_at IS NULL AND rowid <= ?", ms(tx.now), userID, seq)
	if err != nil {
		return 0, err
	}
	n, err := res.RowsAffected()
	if err != nil || n == 0 {
		return n, err
	}
	return n, tx.Audit(userID, livemode, "notices.read", "notice", upTo, map[string]any{"marked": n})
}
