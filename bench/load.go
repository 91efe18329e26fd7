package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/payoutd/payoutd/kyc"
	"github.com/payoutd/payoutd/store"
)

const address = "GA7QYNF7SOWQ3GLR2BGMZEHXAVIRZA4KVWLTJJFC7MGXUA74P7UJVSGZ"

// LoadResult is one endpoint under concurrent load.
type LoadResult struct {
	Requests int     `json:"requests"`
	Errors   int     `json:"errors"`
	ReqPerS  float64 `json:"req_per_s"`
	P50MS    float64 `json:"p50_ms"`
	P99MS    float64 `json:"p99_ms"`
	P999MS   float64 `json:"p999_ms"`
	// CPUMSPerReq is process CPU time (server and load generator) per
	// request; StealPct the hypervisor's share of the machine meanwhile.
	CPUMSPerReq float64 `json:"cpu_ms_per_req"`
	StealPct    float64 `json:"steal_pct"`
}

type benchUser struct {
	key, vault string
}

// makeUsers creates sandbox users whose keys are exempt from the per-user
// rate limits; nobody else's limits change.
func makeUsers(ctx context.Context, db *store.DB, sealer *store.Sealer, n int) ([]benchUser, error) {
	users := make([]benchUser, n)
	err := db.WithTx(ctx, func(tx *store.Tx) error {
		for i := range users {
			u, _, err := tx.People().EnsureUser(fmt.Sprintf("bench-%d@payoutd.local", i), false, "Bench User", sealer)
			if err != nil {
				return err
			}
			k, secret, err := tx.Keys().CreateAPIKey(u, "bench", store.AllScopes)
			if err != nil {
				return err
			}
			if err := tx.Keys().SetRateExempt(k.ID); err != nil {
				return err
			}
			v, err := tx.Vaults().DefaultVault(u.ID)
			if err != nil {
				return err
			}
			// Cross-border payouts need KYC; bench users skip the hosted flow.
			if _, err := kyc.SandboxWalk(tx, u.ID, true, ""); err != nil {
				return err
			}
			// Enough funds for a long run at the bench's amounts.
			if _, err := tx.Vaults().FundVault(u.ID, v.ID, 1_000_000_000_00); err != nil {
				return err
			}
			users[i] = benchUser{key: secret, vault: v.ID}
		}
		return nil
	}, store.WithActor("bench", ""))
	return users, err
}

// recorder collects latencies from many goroutines.
type recorder struct {
	mu     sync.Mutex
	lat    []time.Duration
	errors int
}

func (r *recorder) add(d time.Duration, ok bool) {
	r.mu.Lock()
	r.lat = append(r.lat, d)
	if !ok {
		r.errors++
	}
	r.mu.Unlock()
}

func (r *recorder) result(elapsed time.Duration) LoadResult {
	sort.Slice(r.lat, func(i, j int) bool { return r.lat[i] < r.lat[j] })
	return LoadResult{
		Requests: len(r.lat), Errors: r.errors, ReqPerS: float64(len(r.lat)) / elapsed.Seconds(),
		P50MS: pct(r.lat, 0.50), P99MS: pct(r.lat, 0.99), P999MS: pct(r.lat, 0.999),
	}
}

func pct(sorted []time.Duration, q float64) float64 {
	if len(sorted) == 0 {
		return 0
	}
	i := int(q * float64(len(sorted)-1))
	return float64(sorted[i].Microseconds()) / 1000
}

// initiated is a payout the initiate phase made: its request's sequence
// number (which names its user and amount) and its id. Kept small: a run
// holds tens of thousands, and the collector's heap goal is five times
// what is live (cli/gc.go).
type initiated struct {
	n  int64
	id string
}

// userOf and amountOf are the user and amount of request n.
func userOf(users []benchUser, n int64) benchUser { return users[int(n)%len(users)] }

func amountOf(n int64) string {
	return fmt.Sprintf("%d.%02d", 1+n%50, []int{0, 10, 20, 50}[n%4]) // no sandbox trigger
}

// load runs step from conc clients until d has passed or step reports it
// has no more work; step gets a sequence number and returns the request's
// outcome. It returns the latencies as one LoadResult.
func load(conc int, d time.Duration, step func(n int64) (ran, ok bool, took time.Duration)) LoadResult {
	var rec recorder
	var seq atomic.Int64
	meter := startCPU()
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for w := 0; w < conc; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(deadline) {
				ran, ok, took := step(seq.Add(1) - 1)
				if !ran {
					return
				}
				rec.add(took, ok)
			}
		}()
	}
	wg.Wait()
	res := rec.result(time.Since(start))
	res.CPUMSPerReq, res.StealPct = meter.perOp(res.Requests), meter.stealPct()
	return res
}

// loadInitiate runs initiate from each of c's clients for d, each request
// with an Idempotency-Key of its own when idem is set.
func loadInitiate(ctx context.Context, c wirePool, users []benchUser, d time.Duration, idem bool) ([]initiated, LoadResult) {
	return initiate(ctx, c, users, d, -1, idem)
}

// initiateN initiates exactly n payouts from c's clients.
func initiateN(ctx context.Context, c wirePool, users []benchUser, n int) ([]initiated, LoadResult) {
	return initiate(ctx, c, users, time.Hour, n, false)
}

// initiate runs initiate from each of c's clients for d, or until n (if
// not negative) requests have been made.
func initiate(ctx context.Context, c wirePool, users []benchUser, d time.Duration, n int, idem bool) ([]initiated, LoadResult) {
	var mu sync.Mutex
	var out []initiated
	res := load(cap(c), d, func(i int64) (bool, bool, time.Duration) {
		if n >= 0 && i >= int64(n) || ctx.Err() != nil {
			return false, false, 0
		}
		u, amount := userOf(users, i), amountOf(i)
		body := []byte(`{"amount":` + amount + `,"currency":"USD","destinationAddress":"` + address + `","invoiceRef":"INV-` + fmt.Sprint(i) + `","counterpartyName":"Bench Client","counterpartyCountry":"US","purposeCode":"P0802"}`)
		var headers []string
		if idem {
			headers = []string{"Idempotency-Key", fmt.Sprintf("00000000-0000-4000-8000-%012d", i)}
		}
		t0 := time.Now()
		var id string
		status, err := c.post("/api/v1/payments/initiate", u.key, body, func(b []byte) { id = paymentID(b) }, headers...)
		took, ok := time.Since(t0), err == nil && status == http.StatusCreated && id != ""
		if ok {
			mu.Lock()
			out = append(out, initiated{n: i, id: id})
			mu.Unlock()
		}
		return true, ok, took
	})
	return out, res
}

// confirmedPayout is a payout the confirm phase moved to COMPLIANCE_CHECK.
type confirmedPayout struct {
	id string
	at time.Time
}

// loadConfirm confirms initiated payouts from each of c's clients for at
// most d.
func loadConfirm(ctx context.Context, c wirePool, users []benchUser, ids []initiated, d time.Duration) ([]confirmedPayout, LoadResult) {
	var mu sync.Mutex
	var out []confirmedPayout
	res := load(cap(c), d, func(n int64) (bool, bool, time.Duration) {
		if n >= int64(len(ids)) || ctx.Err() != nil {
			return false, false, 0
		}
		p := ids[n]
		u := userOf(users, p.n)
		body := []byte(`{"id":"` + p.id + `","destinationAddress":"` + address + `","amount":"` + amountOf(p.n) + `","currency":"USD","vaultId":"` + u.vault + `"}`)
		t0 := time.Now()
		status, err := c.post("/api/v1/payments/confirm", u.key, body, nil)
		took, ok := time.Since(t0), err == nil && status == http.StatusCreated
		if ok {
			mu.Lock()
			out = append(out, confirmedPayout{id: p.id, at: t0})
			mu.Unlock()
		}
		return true, ok, took
	})
	return out, res
}

// paymentID is the id of the payment a response body shows: its first
// field, so the load client need not decode the whole payment.
func paymentID(b []byte) string {
	const head = `{"id":"`
	if rest, ok := bytes.CutPrefix(b, []byte(head)); ok {
		if end := bytes.IndexByte(rest, '"'); end > 0 {
			return string(rest[:end])
		}
	}
	var p struct{ ID string }
	if json.Unmarshal(b, &p) != nil {
		return ""
	}
	return p.ID
}
