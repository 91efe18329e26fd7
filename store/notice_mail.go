package store

import (
	"context"
	"slices"
)

// NoticeMailOff lists the notice kinds the user does not want by e-mail.
func (db *DB) NoticeMailOff(ctx context.Context, userID string) ([]string, error) {
	rows, err := db.query(ctx, "SELECT kind FROM notice_mail_off WHERE user_id = ? ORDER BY kind", userID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []string{}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			return nil, err
		}
		out = append(out, k)
	}
	return out, rows.Err()
}

// MailsNotice reports whether the user wants notices of kind by e-mail.
func (tx *Tx) MailsNotice(userID, kind string) (bool, error) {
	var n int
	err := tx.queryRow("SELECT count(*) FROM notice_mail_off WHERE user_id = ? AND kind = ?", userID, kind).Scan(&n)
	return n == 0, err
}

// SetNoticeMailOff replaces the kinds the user does not want by e-mail,
// with an audit row when that changes anything.
func (tx *Tx) SetNoticeMailOff(userID string, livemode bool, off []string) error {
	var before []string
	rows, err := tx.query("SELECT kind FROM notice_mail_off WHERE user_id = ? ORDER BY kind", userID)
	if err != nil {
		return err
	}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			rows.Close()
			return err
		}
		before = append(before, k)
	}
	if err := rows.Close(); err != nil {
		return err
	}
	after := slices.Compact(slices.Sorted(slices.Values(off)))
	if slices.Equal(before, after) {
		return nil
	}
	if _, err := tx.exec("DELETE FROM notice_mail_off WHERE user_id = ?", userID); err != nil {
		return err
	}
	for _, k := range after {
		if _, err := tx.exec("INSERT INTO notice_mail_off (user_id, kind, created_at) VALUES (?,?,?)", userID, k, ms(tx.now)); err != nil {
			return err
		}
	}
	if after == nil {
		after = []string{}
	}
	return tx.Audit(userID, livemode, "notices.mail_set", "user", userID, map[string]any{"mailOff": after})
}

// Users lists every user in both modes (the periodic notice job looks for
// each one's dated occasions).
func (db *DB) Users(ctx context.Context) ([]User, error) {
	rows, err := db.query(ctx, "SELECT id, email, livemode FROM users ORDER BY id")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []User
	for rows.Next() {
		var u User
		if err := rows.Scan(&u.ID, &u.Email, &u.Livemode); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}
