package server_test

import (
	"net/http"
	"testing"

	"github.com/matryer/is"
)

// TestFreeTextRefusesControlsAndBidi: a name, memo or reference holding a
// NUL, another C0 control, DEL, a C1 control or a bidi override/isolate is
// a 400 naming the field, and so is invalid UTF-8 (never stored as U+FFFD).
func TestFreeTextRefusesControlsAndBidi(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver, o.limits = true, map[string]int{"initiate": 1000} })
	initiate := func(field, value string) string {
		return `{"amount":"10.00","currency":"USD","destinationAddress":"` + testAddress + `","` + field + `":"` + value + `"}`
	}
	cases := []struct {
		name, path, method, body, field string
	}{
		{"MemoNUL", "/api/v1/payments/initiate", "POST", initiate("memo", `a\u0000b`), "memo"},
		{"MemoBell", "/api/v1/payments/initiate", "POST", initiate("memo", `a\u0007b`), "memo"},
		{"MemoNewline", "/api/v1/payments/initiate", "POST", initiate("memo", `a\nb`), "memo"},
		{"MemoDEL", "/api/v1/payments/initiate", "POST", initiate("memo", `a\u007fb`), "memo"},
		{"MemoNEL", "/api/v1/payments/initiate", "POST", initiate("memo", `a\u0085b`), "memo"},
		{"CounterpartyNameCSI", "/api/v1/payments/initiate", "POST", initiate("counterpartyName", "Acme \u009b31m"), "counterpartyName"},
		{"InvoiceRefRLO", "/api/v1/payments/initiate", "POST", initiate("invoiceRef", "INV-\u202e7"), "invoiceRef"},
		{"InvoiceRefLRE", "/api/v1/payments/initiate", "POST", initiate("invoiceRef", `INV-\u202a7`), "invoiceRef"},
		{"CounterpartyNameFSI", "/api/v1/payments/initiate", "POST", initiate("counterpartyName", "Acme \u2068Ltd"), "counterpartyName"},
		{"CounterpartyBankPDI", "/api/v1/payments/initiate", "POST", initiate("counterpartyBank", `Bank\u2069`), "counterpartyBank"},
		{"MemoInvalidUTF8", "/api/v1/payments/initiate", "POST", initiate("memo", "caf\xe9"), "memo"},
		{"ProfileNameNUL", "/api/v1/profile", "PATCH", `{"name":"Asha\u0000Rao"}`, "name"},
		{"ProfileNameRLI", "/api/v1/profile", "PATCH", "{\"name\":\"Asha \u2067Rao\"}", "name"},
		{"ProfileNameInvalidUTF8", "/api/v1/profile", "PATCH", "{\"name\":\"Asha \xff Rao\"}", "name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req(c.method, c.path, []byte(c.body))
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			if r.field(t, c.field) == "" {
				t.Fatalf("no message on %s: %s", c.field, r.Body)
			}
		})
	}
	// The same fields with ordinary text, non-Latin scripts and a
	// right-to-left name without override characters are accepted.
	for _, ok := range []struct{ name, method, path, body string }{
		{"Memo", "POST", "/api/v1/payments/initiate", initiate("memo", "Invoice 7 — design work, ₹ and café")},
		{"Hindi", "PATCH", "/api/v1/profile", `{"name":"आशा राव"}`},
		{"Arabic", "PATCH", "/api/v1/profile", `{"name":"سارة"}`},
	} {
		t.Run("OK"+ok.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req(ok.method, ok.path, []byte(ok.body))
			if r.Status >= 300 {
				t.Fatalf("%s %s: %d %s", ok.method, ok.path, r.Status, r.Body)
			}
			is.True(r.Status < 300)
		})
	}
}
