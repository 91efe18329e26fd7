package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// SequestrationPolicy is how much of each settlement goes to the tax reserve.
type SequestrationPolicy struct {
	UserID    string
	Enabled   bool
	RateBP    int64 // hundredths of a percent
	Trigger   string
	UpdatedAt time.Time
}

// SequestrationPolicy reads the user's policy; none means disabled.
func (g PaymentsTx) SequestrationPolicy(userID string) (SequestrationPolicy, error) {
	tx := g.tx
	return rememberedSetting(tx, settingsPolicies, userID, func(c *settingsCache) *map[string]SequestrationPolicy { return &c.policies },
		func() (SequestrationPolicy, error) { return scanPolicy(tx.queryRow(policySQL, userID), userID) })
}

// SequestrationPolicy reads the user's policy outside a transaction.
func (g Payments) SequestrationPolicy(ctx context.Context, userID string) (SequestrationPolicy, error) {
	db := g.db
	return scanPolicy(db.r.QueryRowContext(ctx, policySQL, userID), userID)
}

const policySQL = "SELECT enabled, rate_bp, trigger, updated_at FROM sequestration_policies WHERE user_id = ?"

func scanPolicy(row rowScanner, userID string) (SequestrationPolicy, error) {
	p := SequestrationPolicy{UserID: userID, Trigger: "on_settlement"}
	var updated int64
	err := row.Scan(&p.Enabled, &p.RateBP, &p.Trigger, &updated)
	if errors.Is(err, sql.ErrNoRows) {
		return p, nil
	}
	p.UpdatedAt = fromMS(updated)
	return p, err
}

// SetSequestrationPolicy replaces the user's policy; it applies to
// settlements from now on, never retroactively.
func (g PaymentsTx) SetSequestrationPolicy(userID string, livemode bool, enabled bool, rateBP int64, trigger string) (SequestrationPolicy, error) {
	tx := g.tx
	_, err := tx.exec(`INSERT INTO sequestration_policies (user_id, enabled, rate_bp, trigger, updated_at) VALUES (?,?,?,?,?)
		ON CONFLICT (user_id) DO UPDATE SET enabled = excluded.enabled, rate_bp = excluded.rate_bp, trigger = excluded.trigger, updated_at = excluded.updated_at`,
		userID, enabled, rateBP, trigger, ms(tx.now))
	if err != nil {
		return SequestrationPolicy{}, err
	}
	p := SequestrationPolicy{UserID: userID, Enabled: enabled, RateBP: rateBP, Trigger: trigger, UpdatedAt: tx.now}
	return p, tx.Audit(userID, livemode, "sequestration.policy_set", "sequestration_policy", userID,
		map[string]any{"enabled": enabled, "rateBp": rateBP, "trigger": trigger})
}
