package server_test

import (
	"context"
	"net/http"
	"path/filepath"
	"testing"

	"github.com/matryer/is"

	"github.com/payoutd/payoutd/store"
)

func TestWalletsListAndGet(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	t.Run("List", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/wallets", nil)
		is.Equal(r.Status, http.StatusOK)
		m := r.JSON(t)
		is.Equal(m["success"], true)
		ws := m["wallets"].([]any)
		is.Equal(len(ws), 1)
		w := ws[0].(map[string]any)
		is.Equal(w["id"], e.VaultID)
		is.Equal(w["vaultType"], "SETTLEMENT")
		is.Equal(w["currency"], "USD")
		is.Equal(w["balance"], "100000.00")
		is.Equal(w["reserved"], "0.00")
		is.Equal(w["available"], "100000.00")
		is.Equal(w["hasKey"], true)
		is.Equal(w["isDefault"], true)
		is.Equal(len(w["address"].(string)), 56)
	})
	t.Run("Get", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/wallets/"+e.VaultID, nil)
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["wallet"].(map[string]any)["id"], e.VaultID)
	})
	t.Run("ErrWalletNotFoundUnknown", func(t *testing.T) {
		is := is.New(t)
		r := e.req("GET", "/api/v1/wallets/vlt_nope", nil)
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.errCode(t), "ERR_WALLET_NOT_FOUND")
	})
	t.Run("ErrWalletNotFoundOtherUsers", func(t *testing.T) {
		is := is.New(t)
		otherKey, _, otherVault := e.newUser("other@example.com", false, store.AllScopes)
		r := e.req("GET", "/api/v1/wallets/"+otherVault, nil)
		is.Equal(r.Status, http.StatusNotFound) // never 403: no hint that it exists
		is.Equal(r.errCode(t), "ERR_WALLET_NOT_FOUND")
		is.Equal(e.reqAs(otherKey, "GET", "/api/v1/wallets/"+otherVault, nil).Status, http.StatusOK)
	})
	t.Run("ReservedAfterConfirm", func(t *testing.T) {
		is := is.New(t)
		e.pay("250.50", nil) // no River: the reservation stays
		w := e.req("GET", "/api/v1/wallets/"+e.VaultID, nil).JSON(t)["wallet"].(map[string]any)
		is.Equal(w["reserved"], "250.50")
		is.Equal(w["available"], "99749.50")
	})
}

func TestWalletCreate(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	cases := []struct {
		name  string
		body  map[string]any
		field string
	}{
		{"ErrCurrencyMissing", map[string]any{"name": "Euro"}, "currency"},
		{"ErrCurrencyUnknown", map[string]any{"currency": "ABC"}, "currency"},
		{"ErrCurrencyLength", map[string]any{"currency": "EURO"}, "currency"},
		{"ErrCurrencyLowerCase", map[string]any{"currency": "eur"}, "currency"},
		{"ErrNameTooLong", map[string]any{"currency": "EUR", "name": string(make([]byte, 101))}, "name"},
		{"ErrUnknownField", map[string]any{"currency": "EUR", "balance": 5}, "balance"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/wallets", c.body)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			is.True(r.field(t, c.field) != "")
		})
	}
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/wallets", map[string]any{"currency": "EUR"})
		is.Equal(r.Status, http.StatusCreated)
		w := r.JSON(t)["wallet"].(map[string]any)
		is.Equal(w["currency"], "EUR")
		is.Equal(w["name"], "EUR vault")
		is.Equal(w["balance"], "0.00")
		is.Equal(w["isDefault"], false)
		is.Equal(w["hasKey"], true)
		v, err := e.DB.Vaults().FindVault(context.Background(), e.UserID, w["id"].(string))
		is.NoErr(err)
		is.True(v.HasKey) // the signing key is sealed in the row
		is.Equal(len(e.req("GET", "/api/v1/wallets", nil).JSON(t)["wallets"].([]any)), 2)
	})
	t.Run("ErrConflictSecondVaultInCurrency", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/wallets", map[string]any{"currency": "EUR", "name": "Another"})
		is.Equal(r.Status, http.StatusConflict)
		is.Equal(r.errCode(t), "ERR_CONFLICT")
		r = e.req("POST", "/api/v1/wallets", map[string]any{"currency": "USD"})
		is.Equal(r.Status, http.StatusConflict)
	})
	t.Run("ThreeDecimalCurrency", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/wallets", map[string]any{"currency": "KWD", "name": "Dinar"})
		is.Equal(r.Status, http.StatusCreated)
		is.Equal(r.JSON(t)["wallet"].(map[string]any)["balance"], "0.000")
	})
	t.Run("ErrInsufficientScope", func(t *testing.T) {
		is := is.New(t)
		key, _, _ := e.newUser("reader@example.com", false, []string{"account:read"})
		is.Equal(e.reqAs(key, "POST", "/api/v1/wallets", map[string]any{"currency": "GBP"}).Status, http.StatusForbidden)
	})
}

func TestSandboxFund(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	fund := func(key, id string, body any) resp {
		return e.reqAs(key, "POST", "/api/v1/sandbox/vaults/"+id+"/fund", body)
	}
	cases := []struct {
		name   string
		amount any
	}{
		{"ErrZero", "0"},
		{"ErrNegative", "-5"},
		{"ErrTooManyDecimals", "1.001"},
		{"ErrExponent", "1e3"},
		{"ErrNotNumber", "ten"},
		{"ErrTooLarge", "1000000000001"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := fund(e.Key, e.VaultID, map[string]any{"amount": c.amount})
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			is.True(r.field(t, "amount") != "")
		})
	}
	t.Run("ErrMissing", func(t *testing.T) {
		is := is.New(t)
		r := fund(e.Key, e.VaultID, map[string]any{})
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(r.field(t, "amount") != "")
	})
	t.Run("OK", func(t *testing.T) {
		is := is.New(t)
		r := fund(e.Key, e.VaultID, []byte(`{"amount": 2500.75}`))
		is.Equal(r.Status, http.StatusOK)
		is.Equal(r.JSON(t)["wallet"].(map[string]any)["balance"], "102500.75")
		r = fund(e.Key, e.VaultID, map[string]any{"amount": "0.25"}) // a JSON string is exact too
		is.Equal(r.Status, http.StatusOK)
		is.Equal(e.vault().Balance, int64(102501_00))
		problems, err := e.DB.Health().Check(context.Background())
		is.NoErr(err)
		is.Equal(len(problems), 0) // the ledger mirrors the vault
	})
	t.Run("ErrBalanceCap", func(t *testing.T) {
		is := is.New(t)
		r := fund(e.Key, e.VaultID, map[string]any{"amount": "1000000000000"})
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(r.field(t, "amount") != "")
	})
	t.Run("ErrWalletNotFound", func(t *testing.T) {
		is := is.New(t)
		_, _, otherVault := e.newUser("other@example.com", false, store.AllScopes)
		r := fund(e.Key, otherVault, map[string]any{"amount": "1"})
		is.Equal(r.Status, http.StatusNotFound)
		is.Equal(r.errCode(t), "ERR_WALLET_NOT_FOUND")
	})
	t.Run("ErrSandboxOnly", func(t *testing.T) {
		is := is.New(t)
		liveKey, _, liveVault := e.newUser("live@example.com", true, store.AllScopes)
		r := fund(liveKey, liveVault, map[string]any{"amount": "1"})
		is.Equal(r.Status, http.StatusForbidden)
		is.Equal(r.errCode(t), "ERR_SANDBOX_ONLY")
	})
	t.Run("Idempotent", func(t *testing.T) {
		is := is.New(t)
		before := e.vault().Balance
		const k = "5b0c7f4e-8f55-4a43-a1f0-5d7f0c2a9e11"
		is.Equal(fund(e.Key, e.VaultID, map[string]any{"amount": "10"}).Status, http.StatusOK)
		r := e.req("POST", "/api/v1/sandbox/vaults/"+e.VaultID+"/fund", map[string]any{"amount": "10"}, "Idempotency-Key", k)
		is.Equal(r.Status, http.StatusOK)
		r = e.req("POST", "/api/v1/sandbox/vaults/"+e.VaultID+"/fund", map[string]any{"amount": "10"}, "Idempotency-Key", k)
		is.Equal(r.Header.Get("Idempotent-Replayed"), "true")
		is.Equal(e.vault().Balance, before+2000) // two fundings, not three
	})
}

func TestWalletSummary(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	r := e.req("POST", "/api/v1/wallets", map[string]any{"currency": "EUR"})
	is.Equal(r.Status, http.StatusCreated)
	eur := r.JSON(t)["wallet"].(map[string]any)["id"].(string)
	is.Equal(e.req("POST", "/api/v1/sandbox/vaults/"+eur+"/fund", map[string]any{"amount": "100.10"}).Status, http.StatusOK)
	r = e.req("POST", "/api/v1/wallets", map[string]any{"currency": "BRL"}) // no sandbox INR rate
	is.Equal(r.Status, http.StatusCreated)
	r = e.req("GET", "/api/v1/wallets/summary", nil)
	is.Equal(r.Status, http.StatusOK)
	m := r.JSON(t)
	is.Equal(m["success"], true)
	is.Equal(m["walletCount"], float64(3))
	totals := m["totals"].([]any)
	is.Equal(len(totals), 3)
	codes := []string{}
	for _, tt := range totals {
		codes = append(codes, tt.(map[string]any)["currency"].(string))
	}
	is.Equal(codes, []string{"BRL", "EUR", "USD"}) // sorted by code
	is.Equal(totals[1].(map[string]any)["balance"], "100.10")
	is.Equal(totals[2].(map[string]any)["balance"], "100000.00")
	is.Equal(totals[2].(map[string]any)["wallets"], float64(1))
	inr := m["indicativeInr"].(map[string]any)
	// 100000.00 USD × 83.25 + 100.10 EUR × 90.10 = 8325000.00 + 9019.01 (9019.01 rounded half-up from 9019.010)
	is.Equal(inr["total"], "8334019.01")
	is.Equal(inr["currency"], "INR")
	is.Equal(inr["rates"].(map[string]any)["USD"], "83.25")
	is.Equal(inr["unpriced"], []any{"BRL"})
}

// TestHasKeyIsHonest: a vault without a key, or whose sealed key no longer
// opens (the master key was replaced), shows hasKey false.
func TestHasKeyIsHonest(t *testing.T) {
	t.Parallel()
	is := is.New(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	other, err := store.LoadOrCreateMasterKey(filepath.Join(t.TempDir(), "other.key"))
	is.NoErr(err)
	var v store.Vault
	err = e.DB.WithTx(context.Background(), func(tx *store.Tx) (err error) {
		v, err = tx.Vaults().CreateVault(store.User{ID: e.UserID}, "Foreign key", "GBP", 0, false, other)
		return err
	})
	is.NoErr(err)
	w := e.req("GET", "/api/v1/wallets/"+v.ID, nil).JSON(t)["wallet"].(map[string]any)
	is.Equal(w["hasKey"], false)
	err = e.DB.WithTx(context.Background(), func(tx *store.Tx) (err error) {
		v, err = tx.Vaults().CreateVault(store.User{ID: e.UserID}, "No key", "AUD", 0, false, nil)
		return err
	})
	is.NoErr(err)
	is.True(!v.HasKey)
	w = e.req("GET", "/api/v1/wallets/"+v.ID, nil).JSON(t)["wallet"].(map[string]any)
	is.Equal(w["hasKey"], false)
	is.Equal(e.req("GET", "/api/v1/wallets/"+e.VaultID, nil).JSON(t)["wallet"].(map[string]any)["hasKey"], true)
}
