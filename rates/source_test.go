package rates

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/matryer/is"
)

var now = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

func TestParseQuotes(t *testing.T) {
	mtime := now.Add(-time.Hour)
	for _, tc := range []struct {
		name, doc string
		asOf      time.Time
		usd       string
		err       string
	}{
		{"WithAsOf", `{"asOf":"2026-11-25T06:00:00Z","rates":{"USD":"83.25","EUR":90.1}}`, now.Add(-6 * time.Hour), "83.25", ""},
		{"BareUsesFallback", `{"USD":"83.30"}`, mtime, "83.30", ""},
		{"ErrNoAsOf", `{"rates":{"USD":"83.25"}}`, time.Time{}, "", `"asOf" is missing`},
		{"ErrUnknownCurrency", `{"asOf":"2026-11-25T06:00:00Z","rates":{"XYZ":"1"}}`, time.Time{}, "", "unknown currency"},
		{"ErrBadRate", `{"asOf":"2026-11-25T06:00:00Z","rates":{"USD":"-1"}}`, time.Time{}, "", "USD"},
		{"ErrNotJSON", `rates`, time.Time{}, "", "want {"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			is := is.New(t)
			q, err := ParseQuotes([]byte(tc.doc), mtime)
			if tc.err != "" {
				is.True(err != nil && strings.Contains(err.Error(), tc.err))
				return
			}
			is.NoErr(err)
			is.Equal(q["USD"].Rate.String(), tc.usd)
			is.True(q["USD"].AsOf.Equal(tc.asOf))
		})
	}
}

func TestSourceFreshness(t *testing.T) {
	is := is.New(t)
	dir := t.TempDir()
	path := filepath.Join(dir, "rates.json")
	is.NoErr(os.WriteFile(path, []byte(`{"asOf":"2026-11-24T06:00:00Z","rates":{"USD":"83.25","EUR":"90.10"}}`), 0o600))
	s := &Source{MaxAge: 24 * time.Hour, Now: func() time.Time { return now }}
	_, fresh := s.Status()
	is.True(!fresh) // nothing in hand is not ready
	is.NoErr(s.LoadFile(path))
	_, err := s.Quote("USD")
	is.True(errors.Is(err, ErrStale)) // 30 hours old: never used silently
	st, fresh := s.Status()
	is.True(!fresh)
	is.Equal(st.Stale, []string{"EUR", "USD"})
	_, err = s.Quote("GBP")
	is.True(err != nil && !errors.Is(err, ErrStale))

	// The URL brings a fresher USD; an older answer later does not undo it.
	var body atomic.Value
	body.Store(`{"asOf":"2026-11-25T11:00:00Z","rates":{"USD":"83.40"}}`)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body.Load().(string))) }))
	defer hs.Close()
	is.NoErr(s.Fetch(context.Background(), hs.Client(), hs.URL))
	q, err := s.Quote("USD")
	is.NoErr(err)
	is.Equal(q.Rate.String(), "83.40")
	is.True(q.AsOf.Equal(now.Add(-time.Hour)))
	body.Store(`{"asOf":"2026-11-25T01:00:00Z","rates":{"USD":"80"}}`)
	is.NoErr(s.Fetch(context.Background(), hs.Client(), hs.URL))
	q, _ = s.Quote("USD")
	is.Equal(q.Rate.String(), "83.40")

	body.Store(`garbage`)
	is.True(s.Fetch(context.Background(), hs.Client(), hs.URL) != nil)
	st, _ = s.Status()
	is.True(st.LastError != "") // /readyz says why
	q, err = s.Quote("USD")
	is.NoErr(err) // the rates in hand stay
	is.Equal(q.Rate.String(), "83.40")
}

// TestSourceRefusesFutureAsOf: a document dated in the future (a typo in
// the year, a publisher's clock) would never turn stale and, being the
// newest, would keep every later correct document out: it is refused, and
// the rates in hand stay.
func TestSourceRefusesFutureAsOf(t *testing.T) {
	is := is.New(t)
	s := &Source{MaxAge: 24 * time.Hour, Now: func() time.Time { return now }}
	is.NoErr(s.Load([]byte(`{"asOf":"2026-11-25T11:00:00Z","rates":{"USD":"83.40"}}`), "-rates", now))
	var body atomic.Value
	body.Store(`{"asOf":"2062-11-25T11:00:00Z","rates":{"USD":"8.34"}}`)
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte(body.Load().(string))) }))
	defer hs.Close()
	err := s.Fetch(context.Background(), hs.Client(), hs.URL)
	is.True(err != nil && strings.Contains(err.Error(), "future"))
	q, err := s.Quote("USD")
	is.NoErr(err)
	is.Equal(q.Rate.String(), "83.40")
	is.True(s.Load([]byte(`{"asOf":"2062-11-25T11:00:00Z","rates":{"USD":"8.34"}}`), "-rates", now) != nil)

	body.Store(`{"asOf":"2026-11-25T11:59:00Z","rates":{"USD":"83.50"}}`)
	is.NoErr(s.Fetch(context.Background(), hs.Client(), hs.URL))
	q, _ = s.Quote("USD")
	is.Equal(q.Rate.String(), "83.50")
}

// TestKeep: Keep gets the quotes in hand at once and every document merged
// after, the rate history GST values are taken from.
func TestKeep(t *testing.T) {
	now := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)
	s := &Source{Now: func() time.Time { return now }}
	if err := s.Load([]byte(`{"asOf":"2026-11-21T09:00:00Z","rates":{"USD":"83.25"}}`), "test", now); err != nil {
		t.Fatal(err)
	}
	var kept []map[string]Quote
	s.Keep(func(q map[string]Quote) { kept = append(kept, q) })
	if err := s.Load([]byte(`{"asOf":"2026-11-21T09:30:00Z","rates":{"USD":"83.30","EUR":"90.10"}}`), "test", now); err != nil {
		t.Fatal(err)
	}
	if len(kept) != 2 || kept[0]["USD"].Rate.String() != "83.25" || kept[1]["EUR"].Rate.String() != "90.10" {
		t.Fatalf("kept %v", kept)
	}
}
