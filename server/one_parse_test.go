package server_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/matryer/is"
)

// TestOneParse: a body means one thing to every reader. A key given twice
// at any depth is 400 naming it (encoding/json would have taken the last
// value, a proxy or signer the first); a lone surrogate escape in any string
// is 400 (decoders store U+FFFD or refuse as they please); metadata keys
// follow the text rules values do. Nothing is written for any of them.
func TestOneParse(t *testing.T) {
	t.Parallel()
	e := newEnv(t, func(o *envOpts) { o.noRiver, o.limits = true, map[string]int{"initiate": 1000} })
	base := `"currency":"USD","destinationAddress":"` + testAddress + `"`
	for _, c := range []struct{ name, body, field string }{
		{"DuplicateAmount", `{"amount":"10.00",` + base + `,"amount":"999999.00"}`, "amount"},
		{"DuplicateCurrency", `{"amount":"10.00",` + base + `,"currency":"EUR"}`, "currency"},
		{"DuplicateMetadataKey", `{"amount":"10.00",` + base + `,"metadata":{"orderId":"A-1","orderId":"B-2"}}`, "metadata.orderId"},
		{"LoneHighSurrogateInMemo", `{"amount":"10.00",` + base + `,"memo":"pay \ud800 now"}`, "memo"},
		{"LoneLowSurrogateInName", `{"amount":"10.00",` + base + `,"counterpartyName":"\udc00"}`, "counterpartyName"},
		{"BrokenPairInInvoiceRef", `{"amount":"10.00",` + base + `,"invoiceRef":"\ud83d\u0041"}`, "invoiceRef"},
		{"LoneSurrogateInMetadataValue", `{"amount":"10.00",` + base + `,"metadata":{"orderId":"\ud83d"}}`, "metadata.orderId"},
		{"LoneSurrogateInMetadataKey", `{"amount":"10.00",` + base + `,"metadata":{"\ud83d":"x"}}`, "metadata"},
		{"NULInMetadataKey", `{"amount":"10.00",` + base + `,"metadata":{"a\u0000b":"x"}}`, "metadata.a\x00b"},
		{"NewlineInMetadataKey", `{"amount":"10.00",` + base + `,"metadata":{"a\nb":"x"}}`, "metadata.a\nb"},
		{"EscInMetadataKey", `{"amount":"10.00",` + base + `,"metadata":{"\u001b[31m":"x"}}`, "metadata.\x1b[31m"},
		{"BidiInMetadataKey", `{"amount":"10.00",` + base + `,"metadata":{"order\u202eId":"x"}}`, "metadata.order\u202eId"},
	} {
		t.Run(c.name, func(t *testing.T) {
			is := is.New(t)
			r := e.req("POST", "/api/v1/payments/initiate", c.body)
			is.Equal(r.Status, http.StatusBadRequest)
			is.Equal(r.errCode(t), "ERR_VALIDATION")
			is.True(r.field(t, c.field) != "")
		})
	}
	t.Run("EverywhereNotJustInitiate", func(t *testing.T) {
		is := is.New(t)
		r := e.req("PATCH", "/api/v1/profile", `{"name":"Asha","name":"Mallory"}`)
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(r.field(t, "name") != "")
		r = e.req("POST", "/api/v1/webhooks", `{"url":"http://127.0.0.1:9/h","description":"\udbff"}`)
		is.Equal(r.Status, http.StatusBadRequest)
		is.True(strings.Contains(r.field(t, "description"), "surrogate"))
	})
	t.Run("PairsAndPlainKeysStillWork", func(t *testing.T) {
		is := is.New(t)
		r := e.req("POST", "/api/v1/payments/initiate", `{"amount":"10.00",`+base+`,"memo":"\ud83d\ude00","metadata":{"order id / ref":"é"}}`)
		is.Equal(r.Status, http.StatusCreated)
		m := r.JSON(t)
		is.Equal(m["memo"], "😀")
		is.Equal(m["metadata"], map[string]any{"order id / ref": "é"})
	})
	var n int
	is.New(t).NoErr(e.SQL.QueryRow("SELECT count(*) FROM payments").Scan(&n))
	is.New(t).Equal(n, 1) // only the last, valid request wrote anything
}
