package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

func TestInitiateFieldRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true; o.limits = map[string]int{"initiate": 10000} })
	e.approveKYC(e.UserID)
	base := func() map[string]any {
		return map[string]any{"amount": json.Number("10.00"), "currency": "USD", "destinationAddress": testAddress}
	}
	badChecksum := testAddress[:55] + "A"
	cases := []struct {
		name  string
		field string
		value any // nil deletes the field
	}{
		{"AmountMissing", "amount", nil},
		{"AmountZero", "amount", json.Number("0")},
		{"AmountNegative", "amount", json.Number("-5")},
		{"AmountTooManyDecimals", "amount", json.Number("1.001")},
		{"AmountExponent", "amount", json.Number("1e3")},
		{"AmountOverCap", "amount", json.Number("1000000000000.01")},
		{"AmountText", "amount", "ten"},
		{"AmountStringExponent", "amount", "1e3"},
		{"AmountStringSpaces", "amount", " 10.00"},
		{"AmountStringSign", "amount", "+10.00"},
		{"AmountStringNegative", "amount", "-10.00"},
		{"AmountStringTooManyDecimals", "amount", "10.001"},
		{"AmountStringEmpty", "amount", ""},
		{"AmountBoolean", "amount", true},
		{"CurrencyMissing", "currency", nil},
		{"CurrencyLength", "currency", "US"},
		{"CurrencyUnknown", "currency", "ZZZ"},
		{"CurrencyLowercase", "currency", "usd"},
		{"DestinationMissing", "destinationAddress", nil},
		{"DestinationShort", "destinationAddress", testAddress[:55]},
		{"DestinationLong", "destinationAddress", testAddress + "A"},
		{"DestinationChecksum", "destinationAddress", badChecksum},
		{"DestinationSeed", "destinationAddress", "SBU2RRGLXH3E5CQHTD3ODLDF2BWDCYUSSBLLZ5GNW7JXHDIYKXZWHOKR"},
		{"DestinationLowercase", "destinationAddress", strings.ToLower(testAddress)},
		{"MemoTooLong", "memo", strings.Repeat("m", 257)},
		{"PurposeFormat", "purposeCode", "0802"},
		{"PurposeLetters", "purposeCode", "PABCD"},
		{"InvoiceRefTooLong", "invoiceRef", strings.Repeat("i", 129)},
		{"CounterpartyNameTooLong", "counterpartyName", strings.Repeat("n", 257)},
		{"CounterpartyCountryLength", "counterpartyCountry", "USA"},
		{"CounterpartyCountryUnknown", "counterpartyCountry", "XX"},
		{"CounterpartyBankTooLong", "counterpartyBank", strings.Repeat("b", 257)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			body := base()
			if c.value == nil {
				delete(body, c.field)
			} else {
				body[c.field] = c.value
			}
			r := e.req("POST", "/api/v1/payments/initiate", body)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			is.True(r.field(t, c.field) != "") // the field is named
		})
	}
	// A cross-border payout names its client: the FIRA prints the remitter.
	t.Run("ErrCrossBorderWithoutRemitter", func(t *testing.T) {
		is := is.New(t)
		for _, name := range []any{nil, ""} {
			body := base()
			body["counterpartyCountry"] = "US"
			if name != nil {
				body["counterpartyName"] = name
			}
			r := e.req("POST", "/api/v1/payments/initiate", body)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			is.True(strings.Contains(r.field(t, "counterpartyName"), "cross-border"))
		}
		body := base()
		body["counterpartyCountry"] = "IN" // a client at home needs no name
		is.Equal(e.req("POST", "/api/v1/payments/initiate", body).Status, http.StatusCreated)
	})
	t.Run("LimitsAreInclusive", func(t *testing.T) {
		is := is.New(t)
		body := base()
		body["memo"] = strings.Repeat("m", 256)
		body["invoiceRef"] = strings.Repeat("i", 128)
		body["counterpartyName"] = strings.Repeat("n", 256)
		body["counterpartyBank"] = strings.Repeat("b", 256)
		body["amount"] = json.Number("12012012012.01") // the most USD one payout may be worth (₹999,999,999,999.83)
		body["purposeCode"] = "P0802"
		body["counterpartyCountry"] = "DE"
		r := e.req("POST", "/api/v1/payments/initiate", body)
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.JSON(t)["amountMinor"], float64(1201201201201))
	})
	// The document's form (a decimal string) and the JSON number are the
	// same amount to the minor unit.
	t.Run("StringAndNumberAgree", func(t *testing.T) {
		is := is.New(t)
		for _, v := range []any{"99999999.99", json.Number("99999999.99")} {
			body := base()
			body["amount"] = v
			r := e.req("POST", "/api/v1/payments/initiate", body)
			is.Equal(r.Status, http.StatusCreated)
			is.Equal(r.JSON(t)["amountMinor"], float64(9999999999))
			is.True(strings.Contains(string(r.Body), `"amount":99999999.99,`))
		}
	})
}

func TestAmountsAreExact(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true; o.limits = map[string]int{"initiate": 10000} })
	cases := []struct {
		amount, currency, want string
	}{
		{"0.1", "USD", "0.10"},
		{"0.2", "USD", "0.20"},
		{"0.30", "USD", "0.30"},
		{"1500", "JPY", "1500"},
		{"1.234", "KWD", "1.234"},
		{"12012012012.01", "USD", "12012012012.01"},
	}
	for _, c := range cases {
		t.Run(c.currency+"_"+c.amount, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/payments/initiate", []byte(`{"amount":`+c.amount+`,"currency":"`+c.currency+`","destinationAddress":"`+testAddress+`"}`))
			is.Equal(r.Status, http.StatusCreated)
			is.True(strings.Contains(string(r.Body), `"amount":`+c.want+`,`)) // exact JSON number, no float noise
		})
	}
	is := is.New(t)
	r := e.req("POST", "/api/v1/payments/initiate", []byte(`{"amount":1.5,"currency":"JPY","destinationAddress":"`+testAddress+`"}`))
	is.Equal(r.Status, http.StatusBadRequest)
	is.Equal(r.field(t, "amount") != "", true)
}

func TestConfirmRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true; o.limits = map[string]int{"initiate": 10000, "confirm": 10000} })
	confirmBody := func(id, amount string) map[string]any {
		return map[string]any{"id": id, "destinationAddress": testAddress, "amount": amount, "currency": "USD", "vaultId": e.VaultID}
	}
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		id := e.initiate("10.00", nil)
		r := e.req("POST", "/api/v1/payments/confirm", confirmBody(id, "10.0"))
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.JSON(t)["status"], "COMPLIANCE_CHECK")
		is.Equal(e.vault().Reserved, int64(1000))
	})
	t.Run("ErrConfirmTwice", func(t *testing.T) {
		is := is.New(t)
		reserved := e.vault().Reserved
		id := e.initiate("11.00", nil)
		is.Equal(e.req("POST", "/api/v1/payments/confirm", confirmBody(id, "11.00")).Status, http.StatusCreated)
		r := e.req("POST", "/api/v1/payments/confirm", confirmBody(id, "11.00"))
		is.Equal(r.Status, http.StatusConflict)
		is.Equal(r.errCode(t), "ERR_INVALID_STATE")
		is.Equal(e.vault().Reserved, reserved+1100) // never a second reservation
	})
	t.Run("ErrMismatch", func(t *testing.T) {
		is := is.New(t)
		id := e.initiate("12.00", nil)
		r := e.req("POST", "/api/v1/payments/confirm", confirmBody(id, "12.01"))
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(r.errCode(t), "ERR_CONFIRM_MISMATCH")
		is.True(r.field(t, "amount") != "")
		b := confirmBody(id, "12.00")
		b["destinationAddress"] = "GA3D5KRYM6CB7OWQ6TWYRR3Z4T7GNZLKERYNZGGA5SOAOPIFY6YQHES5"
		r = e.req("POST", "/api/v1/payments/confirm", b)
		is.Equal(r.errCode(t), "ERR_CONFIRM_MISMATCH")
	})
	t.Run("ErrOtherUsersPayment", func(t *testing.T) {
		is := is.New(t)
		otherKey, _, _ := e.newUser("other-confirm@example.com", false, []string{"payments:write"})
		id := e.initiate("13.00", nil)
		r := e.reqAs(otherKey, "POST", "/api/v1/payments/confirm", confirmBody(id, "13.00"))
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.errCode(t), "ERR_PAYMENT_NOT_FOUND")
	})
	t.Run("ErrOtherUsersVault", func(t *testing.T) {
		is := is.New(t)
		_, _, otherVault := e.newUser("other-vault@example.com", false, []string{"payments:write"})
		id := e.initiate("14.00", nil)
		b := confirmBody(id, "14.00")
		b["vaultId"] = otherVault
		r := e.req("POST", "/api/v1/payments/confirm", b)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.errCode(t), "ERR_WALLET_NOT_FOUND")
	})
	t.Run("ErrInsufficientFunds", func(t *testing.T) {
		is := is.New(t)
		id := e.initiate("100000.01", nil)
		r := e.req("POST", "/api/v1/payments/confirm", confirmBody(id, "100000.01"))
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(r.errCode(t), "ERR_INSUFFICIENT_FUNDS")
	})
	t.Run("ErrVaultNoKey", func(t *testing.T) {
		is := is.New(t)
		var sealed []byte
		is.NoErr(e.SQL.QueryRow("SELECT key_sealed FROM vaults WHERE id = ?", e.VaultID).Scan(&sealed))
		defer e.SQL.Exec("UPDATE vaults SET key_sealed = ? WHERE id = ?", sealed, e.VaultID)
		for name, value := range map[string]any{"NoKey": nil, "SealedUnderAnotherMasterKey": append([]byte{}, sealed[:len(sealed)-1]...)} {
			_, err := e.SQL.Exec("UPDATE vaults SET key_sealed = ? WHERE id = ?", value, e.VaultID)
			is.NoErr(err)
			id := e.initiate("15.00", nil)
			r := e.req("POST", "/api/v1/payments/confirm", confirmBody(id, "15.00"))
			is.Equal(r.Status, http.StatusBadRequest) // name
			is.Equal(r.errCode(t), "ERR_VAULT_NO_KEY")
			_ = name
		}
	})
	t.Run("ErrKYCRequiredForCrossBorder", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": 5, "currency": "USD", "destinationAddress": testAddress, "counterpartyCountry": "US", "counterpartyName": "Acme Inc"})
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(r.errCode(t), "ERR_KYC_REQUIRED")
		// Domestic payouts need no KYC.
		r = e.req("POST", "/api/v1/payments/initiate", map[string]any{"amount": 5, "currency": "USD", "destinationAddress": testAddress, "counterpartyCountry": "IN"})
		is.Equal(r.Status, http.StatusCreated)
	})
	t.Run("ErrLiveWithoutAdapter", func(t *testing.T) {
		is := is.New(t)
		liveKey, _, liveVault := e.newUser("live@example.com", true, []string{"payments:write"})
		r := e.reqAs(liveKey, "POST", "/api/v1/payments/initiate", map[string]any{"amount": 5, "currency": "USD", "destinationAddress": testAddress})
		is.Equal(r.Status, http.StatusCreated)
		id := r.JSON(t)["id"].(string)
		b := confirmBody(id, "5.00")
		b["vaultId"] = liveVault
		r = e.reqAs(liveKey, "POST", "/api/v1/payments/confirm", b)
		is.Equal(r.Status, http.StatusBadRequest)
		is.Equal(r.errCode(t), "ERR_LIVE_NOT_CONFIGURED")
	})
}
