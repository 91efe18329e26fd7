package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestContractValidatorCatches proves the contract test's response check
// can fail: real responses of a running payoutd pass it, and the same
// responses with one planted fault each (a value outside an enum, a wrong
// type, a field the document does not describe, a missing required field or
// header, an undocumented status or error code, an amount whose paise or
// minor-unit companion disagrees) are refused.
func TestContractValidatorCatches(t *testing.T) {
	t.Parallel()
	c := loadContract(t)
	e := newEnv(t, func(o *envOpts) { o.noRiver = true })
	e.approveKYC(e.UserID)
	q := &requester{c: c, base: e.URL, key: e.Key, client: browserClient(t, false)}

	initiated := q.do(t, call{op: "initiatePayment", headers: []string{"Idempotency-Key", newKey()}, want: 201})
	list := q.do(t, call{op: "listPayments", query: map[string]string{"status": ""}, want: 200})
	notFound := q.do(t, call{op: "getPayout", path: map[string]string{"id": "pay_0000000000"}, want: 404})

	cases := []struct {
		name  string
		op    string
		real  resp
		plant func(r *resp, body map[string]any)
		want  string // a fragment of the refusal
	}{
		{"WrongEnum", "initiatePayment", initiated, func(_ *resp, b map[string]any) { b["status"] = "DONE" }, "/status"},
		{"WrongType", "initiatePayment", initiated, func(_ *resp, b map[string]any) { b["amount"] = "250.00" }, "/amount"},
		{"WrongIntegerType", "initiatePayment", initiated, func(_ *resp, b map[string]any) { b["amountMinor"] = json.Number("25000.5") }, "/amountMinor"},
		{"ExtraField", "initiatePayment", initiated, func(_ *resp, b map[string]any) { b["surprise"] = true }, "surprise"},
		{"MissingRequired", "initiatePayment", initiated, func(_ *resp, b map[string]any) { delete(b, "amountMinor") }, "amountMinor"},
		{"INRCompanionDisagrees", "initiatePayment", initiated, func(_ *resp, b map[string]any) {
			b["amountInr"], b["amountInrPaise"] = json.Number("20812.50"), json.Number("2081249")
		}, "amountInr is 20812.50 but its Paise companion is 2081249"},
		{"MinorCompanionDisagrees", "initiatePayment", initiated, func(_ *resp, b map[string]any) {
			b["amountMinor"] = json.Number("25001")
		}, "but its Minor companion is 25001"},
		{"NestedExtraField", "listPayments", list, func(_ *resp, b map[string]any) {
			asMap(asArr(b["items"])[0])["fee"] = json.Number("1")
		}, "fee"},
		{"NestedWrongEnum", "listPayments", list, func(_ *resp, b map[string]any) {
			asMap(asArr(b["items"])[0])["type"] = "RECEIVE"
		}, "/items/0/type"},
		{"MissingHasMore", "listPayments", list, func(_ *resp, b map[string]any) { delete(b, "hasMore") }, "hasMore"},
		{"ErrorExtraField", "getPayout", notFound, func(_ *resp, b map[string]any) {
			b["error"].(map[string]any)["hint"] = "x"
		}, "hint"},
		{"UndocumentedErrorCode", "getPayout", notFound, func(_ *resp, b map[string]any) {
			b["error"].(map[string]any)["code"] = "ERR_CONFLICT"
		}, "x-error-codes"},
		{"UndocumentedStatus", "getPayout", notFound, func(r *resp, _ map[string]any) { r.Status = http.StatusTeapot }, "not documented"},
		{"MissingRequestID", "listPayments", list, func(r *resp, _ map[string]any) { r.Header.Del("X-Request-Id") }, "X-Request-Id"},
	}
	if len(asArr(asMap(mustJSON(t, list.Body))["items"])) != 1 {
		t.Fatalf("the list should hold the initiated payment: %s", list.Body)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			op := c.ops[tc.op]
			if err := c.verify(t, op, tc.real); err != nil {
				t.Fatalf("the real response fails the check: %v", err)
			}
			v, err := decodeJSONValue(tc.real.Body)
			if err != nil {
				t.Fatal(err)
			}
			bad := resp{Status: tc.real.Status, Header: tc.real.Header.Clone()}
			body := asMap(deepCopy(v))
			tc.plant(&bad, body)
			if bad.Body, err = json.Marshal(body); err != nil {
				t.Fatal(err)
			}
			err = c.verify(t, op, bad)
			if err == nil {
				t.Fatalf("a planted fault passed the check: %s", bad.Body)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("refused, but not for the planted fault (%s): %v", tc.want, err)
			}
		})
	}
}

func mustJSON(t *testing.T, b []byte) any {
	t.Helper()
	v, err := decodeJSONValue(b)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
