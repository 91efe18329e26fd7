package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/payoutd/payoutd/india"
	"github.com/payoutd/payoutd/store"
)

// updateGolden rewrites server/testdata/*.golden.* instead of comparing, as
// the standard library's go/printer tests do:
//
//	go test ./server/ -run 'Golden' -update
var updateGolden = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create the golden file)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file (run with -update to accept):\n--- got ---\n%s\n--- want ---\n%s", path, got, want)
	}
}

// testClock is a settable clock for store.DB.Now; atomic so River workers
// may read it while the test moves it.
type testClock struct{ ms atomic.Int64 }

func (c *testClock) Now() time.Time  { return time.UnixMilli(c.ms.Load()).UTC() }
func (c *testClock) Set(t time.Time) { c.ms.Store(t.UnixMilli()) }

// fixClock makes every later transaction see t until the clock is moved.
func (e *env) fixClock(t time.Time) *testClock {
	c := &testClock{}
	c.Set(t)
	e.DB.SetClock(c.Now)
	return c
}

// ist is a wall-clock time in India.
func ist(y int, m time.Month, d, hh, mm int) time.Time {
	return time.Date(y, m, d, hh, mm, 0, 0, india.IST)
}

// testGSTIN builds a valid GSTIN (Maharashtra) around an individual's PAN.
func testGSTIN(t *testing.T, pan string) string {
	t.Helper()
	first14 := "27" + pan + "1Z"
	c, err := india.GSTINCheckChar(first14)
	if err != nil {
		t.Fatal(err)
	}
	return first14 + string(c)
}

const testPAN = "ABCPR1234K"

// setTaxProfile records the GST and LUT details PATCH /profile accepts.
func (e *env) setTaxProfile(lutNumber, lutValidUntil string) {
	e.t.Helper()
	body := map[string]any{"gstin": testGSTIN(e.t, testPAN), "pan": testPAN, "lutNumber": lutNumber,
		"lutValidUntil": lutValidUntil, "phone": "+91 98765 43210"}
	if r := e.req("PATCH", "/api/v1/profile", body); r.Status != http.StatusOK {
		e.t.Fatalf("PATCH /profile: %d %s", r.Status, r.Body)
	}
}

// getExact GETs path, requires 200, and decodes numbers as json.Number so
// amounts are compared as the exact text the API sent.
func (e *env) getExact(path string) map[string]any {
	e.t.Helper()
	r := e.req("GET", path, nil)
	if r.Status != http.StatusOK {
		e.t.Fatalf("GET %s: %d %s", path, r.Status, r.Body)
	}
	d := json.NewDecoder(bytes.NewReader(r.Body))
	d.UseNumber()
	var m map[string]any
	if err := d.Decode(&m); err != nil {
		e.t.Fatalf("GET %s: %v: %s", path, err, r.Body)
	}
	return m
}

// at walks a decoded JSON value by a dotted path ("liable.gstDue",
// "advanceTaxSchedule.0.amount") and renders the leaf as text.
func at(v any, path string) string {
	for _, k := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[k]
		case []any:
			var i int
			fmt.Sscan(k, &i)
			if i >= len(x) {
				return "<missing>"
			}
			v = x[i]
		default:
			return "<missing>"
		}
	}
	if v == nil {
		return "null"
	}
	return fmt.Sprint(v)
}

// refreshTax runs the tax refresh for the default user directly, as the
// tax_refresh job does.
func (e *env) refreshTax() {
	e.t.Helper()
	err := e.DB.WithTx(context.Background(), func(tx *store.Tx) error { return tx.Tax().RefreshTaxFigures(e.UserID) })
	if err != nil {
		e.t.Fatal(err)
	}
}
