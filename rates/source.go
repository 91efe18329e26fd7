package rates

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"sort"
	"sync"
	"time"

	"github.com/payoutd/payoutd/money"
)

// ErrStale is a rate older than the source's maximum age: a live payout is
// never valued at it.
var ErrStale = errors.New("INR rate is older than -rates-max-age")

// Quote is one rate with the time it was true.
type Quote struct {
	Rate money.Rate
	AsOf time.Time
}

// Source holds the live rates: loaded from -rates FILE, refreshed from
// -rates-url, each with its as-of time, and refused once older than MaxAge.
type Source struct {
	MaxAge time.Duration
	Now    func() time.Time

	mu     sync.RWMutex
	quotes map[string]Quote
	// history keeps each currency's quotes, oldest first, so a payout is
	// valued at the rate as of its settlement (QuoteAt).
	history map[string][]Quote
	keep    func(map[string]Quote) // see Keep
	origin  string
	err     error // the last refresh's failure, shown by /readyz
}

// DefaultMaxAge is how old a live rate may be: a day, the cadence at which
// reference rates are published.
const DefaultMaxAge = 24 * time.Hour

// fileFormat is a rates document with its as-of time. A bare object of
// currency → rate (the sandbox override format) is read too; its as-of is
// the file's modification time.
type fileFormat struct {
	AsOf  time.Time              `json:"asOf"`
	Rates map[string]json.Number `json:"rates"`
}

// ParseQuotes reads a rates document; fallback is the as-of of a bare object.
func ParseQuotes(b []byte, fallback time.Time) (map[string]Quote, error) {
	var doc fileFormat
	if err := json.Unmarshal(b, &doc); err != nil || doc.Rates == nil {
		var bare map[string]json.Number
		if err := json.Unmarshal(b, &bare); err != nil {
			return nil, fmt.Errorf("want {\"asOf\": RFC 3339 time, \"rates\": {\"USD\": \"83.25\", …}}: %w", err)
		}
		doc = fileFormat{AsOf: fallback, Rates: bare}
	}
	if doc.AsOf.IsZero() {
		return nil, errors.New(`"asOf" is missing`)
	}
	out := map[string]Quote{}
	for c, v := range doc.Rates {
		if _, ok := money.Lookup(c); !ok {
			return nil, fmt.Errorf("unknown currency %q", c)
		}
		r, err := money.ParseRate(string(v))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", c, err)
		}
		out[c] = Quote{Rate: r, AsOf: doc.AsOf.UTC()}
	}
	return out, nil
}

// LoadFile replaces the quotes it names with the file's.
func (s *Source) LoadFile(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	st, err := os.Stat(path)
	if err != nil {
		return err
	}
	return s.Load(b, "rates file "+path, st.ModTime())
}

// Load merges a rates document given inline; fallback is the as-of of a
// bare object.
func (s *Source) Load(b []byte, origin string, fallback time.Time) error {
	q, err := s.parse(b, fallback)
	if err != nil {
		return fmt.Errorf("%s: %w", origin, err)
	}
	s.merge(q, origin)
	return nil
}

// parse reads a rates document and refuses one dated in the future.
func (s *Source) parse(b []byte, fallback time.Time) (map[string]Quote, error) {
	q, err := ParseQuotes(b, fallback)
	if err == nil {
		err = s.notAhead(q)
	}
	return q, err
}

// clockSkew is how far ahead of payoutd's clock a document's as-of may be.
const clockSkew = 5 * time.Minute

// notAhead refuses quotes dated in the future: such a rate would never
// turn stale, and as the newest it would keep every later correct one out.
func (s *Source) notAhead(q map[string]Quote) error {
	for _, v := range q {
		if v.AsOf.After(s.Now().Add(clockSkew)) {
			return fmt.Errorf("asOf %s is in the future", v.AsOf.Format(time.RFC3339))
		}
	}
	return nil
}

// Fetch reads the document at url (the same JSON as a file) and merges it;
// a failure is kept for /readyz and the rates in hand stay.
func (s *Source) Fetch(ctx context.Context, client *http.Client, url string) error {
	err := func() error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		res, err := client.Do(req)
		if err != nil {
			return err
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return fmt.Errorf("%s answered %s", url, res.Status)
		}
		b, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		if err != nil {
			return err
		}
		q, err := s.parse(b, time.Time{})
		if err != nil {
			return fmt.Errorf("%s: %w", url, err)
		}
		s.merge(q, url)
		return nil
	}()
	if err != nil {
		s.failed(err)
	}
	return err
}

// Poll fetches url every interval until ctx ends.
func (s *Source) Poll(ctx context.Context, client *http.Client, url string, interval time.Duration, log *slog.Logger) {
	for {
		if err := s.Fetch(ctx, client, url); err != nil && ctx.Err() == nil {
			log.Warn("rates: fetch failed; keeping the rates in hand", "url", url, "error", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
		}
	}
}

// merge keeps, per currency, the newer quote: a late answer from the URL
// cannot replace a fresher file. It clears the last refresh's failure.
func (s *Source) merge(q map[string]Quote, origin string) {
	s.mu.Lock()
	if keep := s.keep; keep != nil {
		defer keep(q) // after the unlock below
	}
	defer s.mu.Unlock()
	if s.quotes == nil {
		s.quotes, s.history = map[string]Quote{}, map[string][]Quote{}
	}
	for c, v := range q {
		if cur, ok := s.quotes[c]; !ok || !v.AsOf.Before(cur.AsOf) {
			s.quotes[c] = v
		}
		s.history[c] = remember(s.history[c], v)
	}
	s.origin, s.err = origin, nil
}

// Keep hands keep the quotes in hand now and every document's quotes merged
// from then on (the process keeps them as rate history: a GST value is
// taken at the rate of its time of supply). keep runs outside the lock.
func (s *Source) Keep(keep func(map[string]Quote)) {
	s.mu.Lock()
	s.keep = keep
	now := make(map[string]Quote, len(s.quotes))
	for c, q := range s.quotes {
		now[c] = q
	}
	s.mu.Unlock()
	if len(now) > 0 {
		keep(now)
	}
}

// Remember adds a quote kept from an earlier run (the database's rate
// history) to the history QuoteAt chooses from, so a payout settled while
// payoutd was down is valued at the rate of its time even when a newer
// document has arrived since. A remembered quote newer than the one in
// hand becomes the current one, as a merged document's would.
func (s *Source) Remember(currency string, q Quote) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.quotes == nil {
		s.quotes, s.history = map[string]Quote{}, map[string][]Quote{}
	}
	if cur, ok := s.quotes[currency]; !ok || q.AsOf.After(cur.AsOf) {
		s.quotes[currency] = q
	}
	s.history[currency] = remember(s.history[currency], q)
}

// Quote returns currency's rate and its as-of time; ErrStale (with the
// quote) when it is older than MaxAge, an error when there is none.
func (s *Source) Quote(currency string) (Quote, error) {
	s.mu.RLock()
	q, ok := s.quotes[currency]
	s.mu.RUnlock()
	if !ok {
		return q, fmt.Errorf("no INR rate for %s", currency)
	}
	if s.Now().Sub(q.AsOf) > s.maxAge() {
		return q, fmt.Errorf("%s rate as of %s: %w", currency, q.AsOf.Format(time.RFC3339), ErrStale)
	}
	return q, nil
}

// QuoteAt returns currency's rate as of at (a settlement's time): the
// newest quote dated no later than at (allowing clockSkew for clocks that
// disagree by seconds), and no more than MaxAge before it. Without one the
// error says what is missing; a payout settled while payoutd held no such
// rate waits for one (a rates document dated before its settlement).
func (s *Source) QuoteAt(currency string, at time.Time) (Quote, error) {
	s.mu.RLock()
	h := s.history[currency]
	s.mu.RUnlock()
	if len(h) == 0 {
		return Quote{}, fmt.Errorf("no INR rate for %s", currency)
	}
	i := sort.Search(len(h), func(i int) bool { return h[i].AsOf.After(at.Add(clockSkew)) })
	if i == 0 {
		return Quote{}, fmt.Errorf("no INR rate for %s as of %s: the oldest in hand is as of %s (give -rates a document dated before it): %w",
			currency, at.UTC().Format(time.RFC3339), h[0].AsOf.Format(time.RFC3339), ErrStale)
	}
	q := h[i-1]
	if at.Sub(q.AsOf) > s.maxAge() {
		return q, fmt.Errorf("%s rate as of %s is older than -rates-max-age at %s: %w", currency, q.AsOf.Format(time.RFC3339),
			at.UTC().Format(time.RFC3339), ErrStale)
	}
	return q, nil
}

// historyLen is how many quotes per currency QuoteAt can choose from: at a
// quote an hour, more than a month.
const historyLen = 1000

// remember adds q to a currency's quotes, kept sorted by as-of time; a
// quote with an as-of already kept replaces it.
func remember(h []Quote, q Quote) []Quote {
	i := sort.Search(len(h), func(i int) bool { return !h[i].AsOf.Before(q.AsOf) })
	if i < len(h) && h[i].AsOf.Equal(q.AsOf) {
		h[i] = q
		return h
	}
	h = append(h, Quote{})
	copy(h[i+1:], h[i:])
	h[i] = q
	if len(h) > historyLen {
		h = h[len(h)-historyLen:]
	}
	return h
}

func (s *Source) maxAge() time.Duration {
	if s.MaxAge > 0 {
		return s.MaxAge
	}
	return DefaultMaxAge
}

// Status is the source's line in /readyz.
type Status struct {
	MaxAge    string            `json:"maxAge"`
	AsOf      map[string]string `json:"asOf"`
	Stale     []string          `json:"stale,omitempty"`
	LastError string            `json:"lastError,omitempty"`
}

// Status reports every quote's age and which are stale.
func (s *Source) Status() (Status, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st := Status{MaxAge: s.maxAge().String(), AsOf: map[string]string{}}
	for c, q := range s.quotes {
		st.AsOf[c] = q.AsOf.Format(time.RFC3339)
		if s.Now().Sub(q.AsOf) > s.maxAge() {
			st.Stale = append(st.Stale, c)
		}
	}
	sort.Strings(st.Stale)
	if s.err != nil {
		st.LastError = s.err.Error()
	}
	return st, len(s.quotes) > 0 && len(st.Stale) == 0
}

// Table is the quotes as a plain table (compliance's indicative values).
func (s *Source) Table() Table {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t := Table{}
	for c, q := range s.quotes {
		t[c] = q.Rate
	}
	return t
}
