package store

import (
	"github.com/payoutd/payoutd/apperr"

	"context"
	"time"
)

// Profile is a user's profile row, with the GST/LUT fields.
// Email is the contact address; the account's identity
// (users.email, what keys are created for) never changes through it.
type Profile struct {
	UserID        string
	Email         string
	Name          string
	Phone         string
	CountryCode   string
	HomeCurrency  string
	GSTIN         string
	PAN           string
	LUTNumber     string
	LUTValidUntil string // YYYY-MM-DD or ""
	Address       string // postal address, free text; printed on FIRAs
	// GSTSpecialCategory: the user supplies from a special-category State,
	// where the GST registration threshold is ₹10 lakh, not ₹20 lakh.
	GSTSpecialCategory bool
	// StateCode is the GST state code of the principal place of business
	// as the user gave it; a GSTIN's own State takes precedence.
	StateCode string
	// GSTRegisteredFrom is the date registration took effect, YYYY-MM-DD.
	GSTRegisteredFrom string
	WalletAddress     string
	WalletProvider    string
	SetupCompleted    bool
	CreatedAt         time.Time
	UpdatedAt         time.Time
}

const profileCols = `user_id, email, name, phone, country_code, home_currency, gstin, pan, lut_number, lut_valid_until,
	wallet_address, wallet_provider, setup_completed, created_at, updated_at, address, gst_special_category, state_code,
	gst_registered_from`

func scanProfile(row interface{ Scan(...any) error }) (Profile, error) {
	var p Profile
	var created, updated int64
	err := row.Scan(&p.UserID, &p.Email, &p.Name, &p.Phone, &p.CountryCode, &p.HomeCurrency, &p.GSTIN, &p.PAN,
		&p.LUTNumber, &p.LUTValidUntil, &p.WalletAddress, &p.WalletProvider, &p.SetupCompleted, &created, &updated, &p.Address,
		&p.GSTSpecialCategory, &p.StateCode, &p.GSTRegisteredFrom)
	p.CreatedAt, p.UpdatedAt = fromMS(created), fromMS(updated)
	return p, notFound(err, apperr.ErrProfileNotFound, "profile")
}

// FindProfile reads a user's profile whether or not setup was completed;
// callers that need a completed profile check SetupCompleted.
func (g People) FindProfile(ctx context.Context, userID string) (Profile, error) {
	db := g.db
	return scanProfile(db.queryRow(ctx, "SELECT "+profileCols+" FROM profiles WHERE user_id = ?", userID))
}

func (tx *Tx) findProfile(userID string) (Profile, error) {
	r, err := rememberedSetting(tx, settingsProfiles, userID, func(c *settingsCache) *map[string]profileRow { return &c.profiles },
		func() (profileRow, error) {
			p, err := scanProfile(tx.queryRow("SELECT "+profileCols+" FROM profiles WHERE user_id = ?", userID))
			if apperr.Code(err) == apperr.ErrProfileNotFound {
				return profileRow{}, nil
			}
			return profileRow{p: p, found: err == nil}, err
		})
	if err == nil && !r.found {
		err = &apperr.Error{Code: apperr.ErrProfileNotFound, Message: "profile not found"}
	}
	return r.p, err
}

// ProfilePatch is a partial update: nil fields are left alone. Values are
// already validated by the caller (format rules live with the HTTP request).
type ProfilePatch struct {
	Name, Email, Phone, CountryCode, HomeCurrency, GSTIN, PAN, LUTNumber, LUTValidUntil, Address *string
	StateCode, GSTRegisteredFrom                                                                 *string
	GSTSpecialCategory                                                                           *bool
}

// UpdateProfile applies the patch and audits what changed. A name completes
// profile setup (GET /profile is 404 until then). A GSTIN embeds
// its holder's PAN (characters 3–12), so when both are set they must agree.
func (g PeopleTx) UpdateProfile(userID string, livemode bool, patch ProfilePatch) (Profile, error) {
	tx := g.tx
	p, err := tx.findProfile(userID)
	if err != nil {
		return p, err
	}
	changes := map[string]any{}
	set := func(col string, dst *string, v *string) {
		if v != nil && *v != *dst {
			changes[col] = map[string]string{"from": *dst, "to": *v}
			*dst = *v
		}
	}
	set("name", &p.Name, patch.Name)
	set("email", &p.Email, patch.Email)
	set("phone", &p.Phone, patch.Phone)
	set("country_code", &p.CountryCode, patch.CountryCode)
	set("home_currency", &p.HomeCurrency, patch.HomeCurrency)
	set("gstin", &p.GSTIN, patch.GSTIN)
	set("pan", &p.PAN, patch.PAN)
	set("lut_number", &p.LUTNumber, patch.LUTNumber)
	set("lut_valid_until", &p.LUTValidUntil, patch.LUTValidUntil)
	set("address", &p.Address, patch.Address)
	set("state_code", &p.StateCode, patch.StateCode)
	set("gst_registered_from", &p.GSTRegisteredFrom, patch.GSTRegisteredFrom)
	if v := patch.GSTSpecialCategory; v != nil && *v != p.GSTSpecialCategory {
		changes["gst_special_category"] = map[string]bool{"from": p.GSTSpecialCategory, "to": *v}
		p.GSTSpecialCategory = *v
	}
	if p.GSTIN != "" && p.PAN != "" && p.GSTIN[2:12] != p.PAN {
		field := "pan"
		if patch.GSTIN != nil {
			field = "gstin"
		}
		return p, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
			Fields: map[string]string{field: "the GSTIN's characters 3-12 must equal the PAN"}}
	}
	if p.GSTIN != "" && p.StateCode != "" && p.GSTIN[:2] != p.StateCode {
		field := "stateCode"
		if patch.GSTIN != nil {
			field = "gstin"
		}
		return p, &apperr.Error{Code: apperr.ErrValidation, Message: "request validation failed",
			Fields: map[string]string{field: "the GSTIN's first two digits are its State's code and must equal stateCode (" + p.StateCode + ")"}}
	}
	completes := patch.Name != nil && !p.SetupCompleted
	if len(changes) == 0 && !completes {
		return p, nil
	}
	if completes {
		p.SetupCompleted = true
		changes["setup_completed"] = true
	}
	p.UpdatedAt = tx.now
	_, err = tx.exec(`UPDATE profiles SET name = ?, email = ?, phone = ?, country_code = ?, home_currency = ?,
		gstin = ?, pan = ?, lut_number = ?, lut_valid_until = ?, address = ?, gst_special_category = ?, setup_completed = ?,
		updated_at = ?, state_code = ?, gst_registered_from = ? WHERE user_id = ?`,
		p.Name, p.Email, p.Phone, p.CountryCode, p.HomeCurrency, p.GSTIN, p.PAN, p.LUTNumber, p.LUTValidUntil, p.Address,
		p.GSTSpecialCategory, p.SetupCompleted, ms(tx.now), p.StateCode, p.GSTRegisteredFrom, userID)
	if err != nil {
		return p, err
	}
	return p, tx.Audit(userID, livemode, "profile.updated", "profile", userID, changes)
}

// LinkWallet records the user's own receiving wallet address.
func (g PeopleTx) LinkWallet(userID string, livemode bool, address, provider string) error {
	tx := g.tx
	p, err := tx.findProfile(userID)
	if err != nil {
		return err
	}
	if _, err := tx.exec("UPDATE profiles SET wallet_address = ?, wallet_provider = ?, updated_at = ? WHERE user_id = ?",
		address, provider, ms(tx.now), userID); err != nil {
		return err
	}
	return tx.Audit(userID, livemode, "profile.wallet_linked", "profile", userID, map[string]any{
		"wallet_address": map[string]string{"from": p.WalletAddress, "to": address},
		"provider":       map[string]string{"from": p.WalletProvider, "to": provider},
	})
}
