package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

// validGSTIN is python-stdnum's example; its PAN is characters 3-12.
const validGSTIN, gstinPAN = "27AAPFU0939F1ZV", "AAPFU0939F"

func TestProfileGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/profile", nil)
		is.Equal(r.Status, http.StatusOK)
		m := r.JSON(t)
		is.Equal(m["success"], true)
		p := m["profile"].(map[string]any)
		is.Equal(p["id"], e.UserID)
		is.Equal(p["email"], "freelancer@example.com")
		is.Equal(p["name"], "Asha Rao")
		is.Equal(p["phone"], "")
		is.True(strings.HasSuffix(p["createdAt"].(string), "Z"))
		is.Equal(len(p), 5) // exactly the documented Profile fields
	})
	t.Run("ErrProfileNotFoundBeforeSetup", func(t *testing.T) {
		is := is.New(t)
		key := acctUserWithoutName(e, "nosetup@example.com")
		r := e.reqAs(key, "GET", "/api/v1/profile", nil)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.errCode(t), "ERR_PROFILE_NOT_FOUND")
		// The full profile is the raw view and answers anyway.
		is.Equal(e.reqAs(key, "GET", "/api/v1/profile/full", nil).Status, http.StatusOK)
		// A name completes setup.
		r = e.reqAs(key, "PATCH", "/api/v1/profile", map[string]any{"name": "Ravi Kumar"})
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["setup_completed"], true)
		r = e.reqAs(key, "GET", "/api/v1/profile", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["profile"].(map[string]any)["name"], "Ravi Kumar")
	})
	t.Run("ErrInsufficientScope", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("payonly@example.com", false, []string{"payments:write"})
		r := e.reqAs(key, "GET", "/api/v1/profile", nil)
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(r.errCode(t), "ERR_INSUFFICIENT_SCOPE")
		readOnly, _, _ := e.newUser("readonly@example.com", false, []string{"account:read"})
		r = e.reqAs(readOnly, "PATCH", "/api/v1/profile", map[string]any{"name": "X"})
		is.Equal(r.Status, http.StatusForbidden)
	})
}

// acctUserWithoutName creates a user whose profile setup is not complete.
func acctUserWithoutName(e *env, email string) string {
	e.t.Helper()
	var key string
	err := e.DB.WithTx(context.Background(), func(tx *store.Tx) error {
		u, _, err := tx.People().EnsureUser(email, false, "", e.Sealer)
		if err != nil {
			return err
		}
		_, key, err = tx.Keys().CreateAPIKey(u, "test", store.AllScopes)
		return err
	})
	if err != nil {
		e.t.Fatal(err)
	}
	return key
}

func TestProfileFull(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	r := e.req("GET", "/api/v1/profile/full", nil)
	is.Equal(r.Status, http.StatusOK)
	m := r.JSON(t)
	is.Equal(m["success"], true)
	p := m["profile"].(map[string]any)
	for _, k := range []string{"id", "email", "display_name", "full_name", "phone", "created_at", "vaults"} {
		_, ok := p[k]
		is.True(ok) // snake_case field present
	}
	is.Equal(p["display_name"], "Asha Rao")
	is.Equal(p["full_name"], "Asha Rao") // no KYC name yet: the profile name
	vaults := p["vaults"].([]any)
	is.Equal(len(vaults), 1)
	v := vaults[0].(map[string]any)
	is.Equal(v["id"], e.VaultID)
	is.Equal(v["vault_type"], "SETTLEMENT")
	is.Equal(v["balance"], "100000.00") // a decimal string
	is.Equal(v["currency"], "USD")
	is.Equal(len(v), 6)
}

func TestProfilePatchFieldRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	long := func(n int) string { return strings.Repeat("a", n) }
	cases := []struct {
		name  string
		body  map[string]any
		field string // "" = accepted
	}{
		{"NameMax", map[string]any{"name": long(100)}, ""},
		{"ErrNameTooLong", map[string]any{"name": long(101)}, "name"},
		{"ErrNameBlank", map[string]any{"name": "   "}, "name"},
		{"ErrNameNotString", map[string]any{"name": 5}, "name"},
		{"Email", map[string]any{"email": "asha@example.in"}, ""},
		{"EmailMax", map[string]any{"email": long(242) + "@example.com"}, ""},
		{"ErrEmailTooLong", map[string]any{"email": long(243) + "@example.com"}, "email"},
		{"ErrEmailInvalid", map[string]any{"email": "not-an-email"}, "email"},
		{"ErrEmailNoDomainDot", map[string]any{"email": "a@localhost"}, "email"},
		{"ErrEmailDisplayName", map[string]any{"email": "Asha <a@example.com>"}, "email"},
		{"ErrEmailBlank", map[string]any{"email": ""}, "email"},
		{"Phone", map[string]any{"phone": "+91 98765 43210"}, ""},
		{"PhoneClear", map[string]any{"phone": ""}, ""},
		{"PhoneMax", map[string]any{"phone": "+" + strings.Repeat("9", 29)}, ""},
		{"ErrPhoneTooLong", map[string]any{"phone": "+" + strings.Repeat("9", 30)}, "phone"},
		{"ErrPhoneLetters", map[string]any{"phone": "call me"}, "phone"},
		{"CountryCode", map[string]any{"countryCode": "IN"}, ""},
		{"ErrCountryCodeLength", map[string]any{"countryCode": "IND"}, "countryCode"},
		{"ErrCountryCodeUnknown", map[string]any{"countryCode": "XX"}, "countryCode"},
		{"ErrCountryCodeLowerCase", map[string]any{"countryCode": "in"}, "countryCode"},
		{"HomeCurrency", map[string]any{"homeCurrency": "INR"}, ""},
		{"ErrHomeCurrencyLength", map[string]any{"homeCurrency": "RUPEE"}, "homeCurrency"},
		{"ErrHomeCurrencyUnknown", map[string]any{"homeCurrency": "ABC"}, "homeCurrency"},
		{"GSTIN", map[string]any{"gstin": validGSTIN}, ""},
		{"ErrGSTINChecksum", map[string]any{"gstin": "27AAPFU0939F1ZO"}, "gstin"},
		{"ErrGSTINLength", map[string]any{"gstin": "27AAPFU0939F1Z"}, "gstin"},
		{"ErrGSTINState", map[string]any{"gstin": "99AAPFU0939F1ZV"}, "gstin"},
		{"PAN", map[string]any{"pan": gstinPAN}, ""},
		{"ErrPANFormat", map[string]any{"pan": "ABCDE12345"}, "pan"},
		{"ErrPANHolderType", map[string]any{"pan": "ABCXE1234F"}, "pan"},
		{"ErrPANLowerCase", map[string]any{"pan": "abcpe1234f"}, "pan"},
		{"ErrPANMismatchesGSTIN", map[string]any{"gstin": validGSTIN, "pan": "ABCPE1234F"}, "gstin"},
		{"LUTNumber", map[string]any{"lutNumber": "AD2703250123456"}, ""},
		{"ErrLUTNumberChars", map[string]any{"lutNumber": "AD 27"}, "lutNumber"},
		{"ErrLUTNumberTooLong", map[string]any{"lutNumber": strings.Repeat("A", 51)}, "lutNumber"},
		{"LUTValidUntil", map[string]any{"lutValidUntil": "2027-03-31"}, ""},
		{"ErrLUTValidUntilFormat", map[string]any{"lutValidUntil": "31/03/2027"}, "lutValidUntil"},
		{"ErrLUTValidUntilNotADate", map[string]any{"lutValidUntil": "2027-02-30"}, "lutValidUntil"},
		{"ErrUnknownField", map[string]any{"nickname": "A"}, "nickname"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			// A fresh user each time: accepted cases must not affect the next.
			key := acctUserWithoutName(e, strings.ToLower(c.name)+"@example.com")
			r := e.reqAs(key, "PATCH", "/api/v1/profile", c.body)
			if c.field == "" {
				is.Equal(r.Status, http.StatusOK)
				return
			}
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			is.True(r.field(t, c.field) != "") // the error names the field
		})
	}
}

func TestProfilePatchRecordAndAudit(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	body := map[string]any{"name": "Asha R.", "email": "asha@example.in", "phone": "+91 98765 43210", "countryCode": "IN",
		"homeCurrency": "INR", "gstin": validGSTIN, "pan": gstinPAN, "lutNumber": "AD2703250123456", "lutValidUntil": "2027-03-31"}
	r := e.req("PATCH", "/api/v1/profile", body)
	is.Equal(r.Status, http.StatusOK)
	m := r.JSON(t)
	_, wrapped := m["profile"]
	is.True(!wrapped) // the raw record, not {success, profile}
	is.Equal(m["id"], e.UserID)
	is.Equal(m["name"], "Asha R.")
	is.Equal(m["email"], "asha@example.in")
	is.Equal(m["country_code"], "IN")
	is.Equal(m["home_currency"], "INR")
	is.Equal(m["gstin"], validGSTIN)
	is.Equal(m["pan"], gstinPAN)
	is.Equal(m["lut_number"], "AD2703250123456")
	is.Equal(m["lut_valid_until"], "2027-03-31")
	is.Equal(m["setup_completed"], true)

	// Only what is sent changes; an empty string clears an optional field.
	r = e.req("PATCH", "/api/v1/profile", map[string]any{"phone": ""})
	is.Equal(r.Status, http.StatusOK)
	is.Equal(r.JSON(t)["phone"], "")
	is.Equal(r.JSON(t)["gstin"], validGSTIN)

	// The account identity is not the contact e-mail.
	u, err := e.DB.People().FindUserByEmail(context.Background(), "freelancer@example.com", false)
	is.NoErr(err)
	is.Equal(u.ID, e.UserID)

	var n int
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM audit_log WHERE action = 'profile.updated' AND user_id = ?", e.UserID).Scan(&n))
	is.Equal(n, 2) // one row per change
	var changes string
	is.NoErr(e.SQL.QueryRow("SELECT changes FROM audit_log WHERE action = 'profile.updated' AND user_id = ? ORDER BY seq DESC LIMIT 1", e.UserID).Scan(&changes))
	is.True(strings.Contains(changes, `"phone"`))
	is.True(!strings.Contains(changes, `"gstin"`))

	// Nothing to change: no audit row.
	is.Equal(e.req("PATCH", "/api/v1/profile", map[string]any{}).Status, http.StatusOK)
	is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM audit_log WHERE action = 'profile.updated' AND user_id = ?", e.UserID).Scan(&n))
	is.Equal(n, 2)

	// A PAN that disagrees with the stored GSTIN names the field sent.
	r = e.req("PATCH", "/api/v1/profile", map[string]any{"pan": "ABCPE1234F"})
	is.Equal(r.Status, http.StatusBadRequest)
	is.True(r.field(t, "pan") != "")
}

func TestLinkedWallet(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	t.Run("ErrNotFoundWhenNoneLinked", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/profile/wallet", nil)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.errCode(t), "ERR_NOT_FOUND")
	})
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"ErrAddressMissing", map[string]any{"provider": "lobstr"}, "walletAddress"},
		{"ErrAddressShort", map[string]any{"walletAddress": testAddress[:55]}, "walletAddress"},
		{"ErrAddressChecksum", map[string]any{"walletAddress": testAddress[:55] + "A"}, "walletAddress"},
		{"ErrAddressSeed", map[string]any{"walletAddress": "S" + testAddress[1:]}, "walletAddress"},
		{"ErrProviderChars", map[string]any{"walletAddress": testAddress, "provider": "Lob Str"}, "provider"},
		{"ErrProviderTooLong", map[string]any{"walletAddress": testAddress, "provider": strings.Repeat("p", 65)}, "provider"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("PATCH", "/api/v1/profile/link-wallet", c.body)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			is.True(r.field(t, c.field) != "")
		})
	}
	t.Run("DefaultProvider", func(t *testing.T) {
		is := is.New(t)
		r := e.req("PATCH", "/api/v1/profile/link-wallet", map[string]any{"walletAddress": testAddress})
		is.Equal(r.Status, http.StatusOK)
		is.Equal(string(r.Body), `{"success":true}`+"\n")
		r = e.req("GET", "/api/v1/profile/wallet", nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["walletAddress"], testAddress)
		is.Equal(r.JSON(t)["provider"], "payoutd")
	})
	t.Run("Provider", func(t *testing.T) {
		is := is.New(t)
		is.Equal(e.req("PATCH", "/api/v1/profile/link-wallet", map[string]any{"walletAddress": testAddress, "provider": "lobstr"}).Status, http.StatusOK)
		is.Equal(e.req("GET", "/api/v1/profile/wallet", nil).JSON(t)["provider"], "lobstr")
		var n int
		is.NoErr(e.SQL.QueryRow("SELECT count(*) FROM audit_log WHERE action = 'profile.wallet_linked' AND user_id = ?", e.UserID).Scan(&n))
		is.Equal(n, 2)
	})
}
